// A contract transport for renderer tests: answers calls from a table of handlers and records them;
// events can be pushed as the host would.
import type { RunEvent } from '../../src-main/common/contract/types.js';
import type { Transport } from '../../src-renderer/api/proxy.js';

/** The fake, its recorded calls and a way to push events. */
export function fakeTransport(handlers: Record<string, (request: unknown) => unknown>) {
  const calls: { method: string; request: unknown }[] = [];
  const listeners = new Set<(e: RunEvent) => void>();
  const transport: Transport = {
    async call(method, request) {
      calls.push({ method, request });
      const h = handlers[method];
      if (!h) throw new Error(`no fake answer for ${method}`);
      return h(request);
    },
    onEvent(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  return { transport, calls, push: (e: RunEvent) => listeners.forEach((l) => l(e)) };
}
