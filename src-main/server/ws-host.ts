// The contract over a WebSocket: each text message is a call (validated, then dispatched to the service),
// answered by a reply with the same id; live run events are pushed to every connected client.
import { WebSocketServer, type WebSocket } from 'ws';
import { dispatch, type DsmcService } from '../common/contract/contract.js';
import type { RunEvent } from '../common/contract/types.js';
import { callMessageSchema, type HostMessage } from '../common/contract/wire.js';

/** Largest message a client may send (a case file is a few KB). */
const MAX_PAYLOAD = 4 * 1024 * 1024;

/** Sends a message to a client if it is still open. */
function send(ws: WebSocket, m: HostMessage): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
}

/** Handles one client message: parse, validate, dispatch, reply. */
async function handleMessage(ws: WebSocket, service: DsmcService, data: string): Promise<void> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    send(ws, { type: 'reply', id: -1, ok: false, error: 'message is not JSON; send {"type":"call","id":1,"method":"listProjects","request":{}}' });
    return;
  }
  const call = callMessageSchema.safeParse(parsed);
  if (!call.success) {
    send(ws, { type: 'reply', id: -1, ok: false, error: `not a call message (${call.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})` });
    return;
  }
  const { id, method, request } = call.data;
  try {
    const result = await dispatch(service, method, request);
    send(ws, { type: 'reply', id, ok: true, result: result ?? null });
  } catch (e) {
    send(ws, { type: 'reply', id, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
}

/** A WebSocket server (upgrades handed in by the HTTP server) that serves the contract. */
export function contractSocketServer(service: DsmcService, subscribe: (l: (e: RunEvent) => void) => () => void): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  const unsubscribe = subscribe((event) => {
    for (const ws of wss.clients) send(ws, { type: 'event', event });
  });
  wss.on('close', unsubscribe);
  wss.on('error', () => undefined);
  wss.on('connection', (ws) => {
    // protocol errors (a frame over maxPayload, invalid UTF-8, a bad opcode): ws closes this socket with the right
    // code (1009, 1007, 1002); without a listener the error would end the whole server
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      if (isBinary) { ws.close(1003, 'text messages only'); return; }
      void handleMessage(ws, service, data.toString());
    });
  });
  return wss;
}
