// The renderer's typed proxy of the contract: one function per method, generated from the contract's
// method table, each sending (method, request) through a transport (WebSocket or Electron's bridge).
import { CONTRACT_METHODS, type DsmcApi } from '../../src-main/common/contract/contract.js';
import type { RunEvent } from '../../src-main/common/contract/types.js';

/** What carries calls and events: browser mode's WebSocket or Electron's preload bridge. */
export interface Transport {
  call(method: string, request: unknown): Promise<unknown>;
  onEvent(listener: (event: RunEvent) => void): () => void;
}

/** The contract as an object of async functions over a transport. */
export function contractProxy(transport: Transport): DsmcApi {
  const api: Record<string, (request: unknown) => Promise<unknown>> = {};
  for (const method of CONTRACT_METHODS) api[method] = (request: unknown) => transport.call(method, request ?? {});
  return api as unknown as DsmcApi;
}
