// The contract over Electron IPC: one handler for the call channel that checks the sender (only the app's
// own window and page), validates the request and dispatches it; live events go to the window.
import type { IpcMainInvokeEvent } from 'electron';
import { dispatch, type DsmcService } from '../common/contract/contract.js';
import { IPC_CALL_CHANNEL } from '../common/contract/wire.js';

/** Registers the call handler; `trusted` says whether an event comes from the app's window and page. */
export function wireContract(
  ipcMain: { handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>): void },
  service: DsmcService,
  trusted: (event: IpcMainInvokeEvent) => boolean,
): void {
  ipcMain.handle(IPC_CALL_CHANNEL, async (event, method, request) => {
    if (!trusted(event)) {
      throw new Error(`refused a call from ${event.senderFrame?.url ?? 'an unknown frame'}: only the DSMC Studio window may use the app's services`);
    }
    return dispatch(service, String(method), request);
  });
}
