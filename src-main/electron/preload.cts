// Electron preload (sandboxed, so CommonJS and self-contained): exposes only the contract's bridge as
// window.dsmc: one call function and one event subscription over two IPC channels. Nothing else of Node or
// Electron reaches the page. The channel names equal IPC_CALL_CHANNEL / IPC_EVENT_CHANNEL of
// src-main/common/contract/wire.ts (a test checks it; a sandboxed preload cannot import that ES module).
import { contextBridge, ipcRenderer } from 'electron';
import type { ContractBridge } from '../common/contract/wire.js';
import type { RunEvent } from '../common/contract/types.js';

export const CALL_CHANNEL = 'dsmc:call';
export const EVENT_CHANNEL = 'dsmc:event';

/** The bridge the renderer's transport uses. */
export const bridge: ContractBridge = {
  call: (method: string, request: unknown) => ipcRenderer.invoke(CALL_CHANNEL, String(method), request),
  onEvent(listener: (event: RunEvent) => void) {
    const wrapped = (_e: unknown, event: unknown) => listener(event as RunEvent);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
  },
};

contextBridge.exposeInMainWorld('dsmc', bridge);
