// The one contract client of the app: set once at startup (WebSocket in browser mode, the preload bridge
// in Electron, a fake in component tests) and used only by the Pinia stores.
import type { DsmcApi } from '../../src-main/common/contract/contract.js';
import type { RunEvent } from '../../src-main/common/contract/types.js';
import { contractProxy, type Transport } from './proxy.js';

let api: DsmcApi | null = null;
let transport: Transport | null = null;

/** Installs the transport the stores use. */
export function useTransport(t: Transport): void {
  transport = t;
  api = contractProxy(t);
}

/** The contract proxy; throws when the app started without a transport. */
export function getApi(): DsmcApi {
  if (!api) throw new Error('no connection to the DSMC Studio services: the app was started without a transport');
  return api;
}

/** Subscribes to live run events. */
export function onRunEvent(listener: (e: RunEvent) => void): () => void {
  if (!transport) throw new Error('no connection to the DSMC Studio services: the app was started without a transport');
  return transport.onEvent(listener);
}
