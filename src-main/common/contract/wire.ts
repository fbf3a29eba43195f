// The messages of the contract on a wire (WebSocket in browser mode; Electron IPC carries the same shapes):
// a call, its reply, and a pushed live event.
import { z } from 'zod';
import type { RunEvent } from './types.js';

/** The renderer calls a method. */
export const callMessageSchema = z.object({
  type: z.literal('call'),
  id: z.number().int().nonnegative(),
  method: z.string().min(1).max(64),
  request: z.unknown(),
});
export type CallMessage = z.infer<typeof callMessageSchema>;

/** The host answers a call: a result or an error message. */
export type ReplyMessage =
  | { type: 'reply'; id: number; ok: true; result: unknown }
  | { type: 'reply'; id: number; ok: false; error: string };

/** The host pushes a live run event. */
export interface EventMessage {
  type: 'event';
  event: RunEvent;
}

export type HostMessage = ReplyMessage | EventMessage;

/** Name of the Electron IPC channel that carries calls, and of the one that carries events. */
export const IPC_CALL_CHANNEL = 'dsmc:call';
export const IPC_EVENT_CHANNEL = 'dsmc:event';

/** What Electron's preload exposes on window.dsmc: one call function and one event subscription. */
export interface ContractBridge {
  call(method: string, request: unknown): Promise<unknown>;
  onEvent(listener: (event: RunEvent) => void): () => void;
}
