// Browser mode's transport: the contract over a WebSocket to `dsmc serve` (/api?token=...), with
// reconnection; calls made while disconnected wait for the connection.
import type { RunEvent } from '../../src-main/common/contract/types.js';
import type { HostMessage } from '../../src-main/common/contract/wire.js';
import type { Transport } from './proxy.js';

/** A pending call's settle functions. */
interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/** Opens (and keeps reopening) a WebSocket to `url` and returns the transport over it. */
export function webSocketTransport(url: string, onStatus: (connected: boolean) => void = () => {}): Transport {
  const pending = new Map<number, Pending>();
  const listeners = new Set<(e: RunEvent) => void>();
  let nextId = 1;
  let ws: WebSocket;
  let ready: Promise<void>;

  /** Opens the socket; fails pending calls and retries after a second when it closes. */
  const connect = () => {
    ws = new WebSocket(url);
    ready = new Promise<void>((resolve) => ws.addEventListener('open', () => { onStatus(true); resolve(); }));
    ws.addEventListener('message', (m) => {
      const msg = JSON.parse(String(m.data)) as HostMessage;
      if (msg.type === 'event') { for (const l of listeners) l(msg.event); return; }
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result); else p.reject(new Error(msg.error));
    });
    ws.addEventListener('close', () => {
      onStatus(false);
      for (const p of pending.values()) p.reject(new Error('the connection to the DSMC Studio server was lost; check that `dsmc serve` is still running, then retry'));
      pending.clear();
      setTimeout(connect, 1000);
    });
  };
  connect();
  return {
    async call(method, request) {
      await ready;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ type: 'call', id, method, request }));
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The WebSocket URL of the server that served this page, with the page's token. */
export function serverSocketUrl(location: Location): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/api?token=${encodeURIComponent(token)}`;
}
