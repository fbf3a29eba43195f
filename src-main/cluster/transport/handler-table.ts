// Message handlers by message type: a type with at least one handler is delivered to its handlers and not
// queued for receive(); errors thrown by a handler are passed to `onHandlerError`.

export class HandlerTable<V> {
  private readonly byType = new Map<string, Set<(value: V) => void>>();

  constructor(private readonly onHandlerError: (error: Error) => void) {}

  /** Adds a handler for `type`; returns the function that removes it. */
  on(type: string, handler: (value: V) => void): () => void {
    let set = this.byType.get(type);
    if (!set) this.byType.set(type, (set = new Set()));
    set.add(handler);
    return () => void set.delete(handler);
  }

  /** Calls the handlers of `type` with `value`; false when there are none (the caller queues it then). */
  deliver(type: string, value: V): boolean {
    const set = this.byType.get(type);
    if (!set || set.size === 0) return false;
    for (const handler of [...set]) {
      try {
        handler(value);
      } catch (e) {
        this.onHandlerError(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return true;
  }
}
