// Ctrl-C (SIGINT) and SIGTERM during a run: the first asks the run to stop after the current submit,
// a second one stops the process at once. A `dsmc run`/`dsmc resume` started by the app (an IPC channel to it) also
// takes the app's {type: 'cancel'} message as the first stop, "from the app".

/** Calls `first(signal)` on the first SIGINT/SIGTERM and `again(signal)` on any later one; returns the remover. */
export function onInterrupt(first: (signal: NodeJS.Signals) => void, again: (signal: NodeJS.Signals) => void): () => void {
  let seen = false;
  const handler = (signal: NodeJS.Signals) => {
    if (seen) return again(signal);
    seen = true;
    first(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** The stop request of one run from the terminal: an AbortSignal for the loop and who asked. */
export interface RunInterrupt {
  signal: AbortSignal;
  /** 'Ctrl-C (SIGINT)', the signal's name or 'from the app' once one came; undefined before. */
  by(): string | undefined;
  /** Removes the signal handlers (call when the run ended). */
  remove(): void;
}

/**
 * Ctrl-C handling of a run: the first SIGINT/SIGTERM prints `what` and aborts the signal (the run stops at its
 * next boundary), a second calls `atOnce` (mark the run ended) and exits with 130.
 */
export function interruptRun(what: string, atOnce: (signal: NodeJS.Signals) => void): RunInterrupt {
  const controller = new AbortController();
  let by: string | undefined;
  const remove = onInterrupt((signal) => {
    by = signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : signal;
    process.stderr.write(`\n${signal}: ${what} (again to stop at once)\n`);
    controller.abort();
  }, (signal) => {
    atOnce(signal);
    process.exit(130);
  });
  // the app's stop button (run-launcher.ts): the same first stop, said to come from the app
  const fromApp = (m: unknown) => {
    if ((m as { type?: unknown } | null)?.type !== 'cancel' || controller.signal.aborted) return;
    by = 'from the app';
    process.stderr.write(`\nstop from the app: ${what}\n`);
    controller.abort();
  };
  if (process.send) {
    process.on('message', fromApp);
    // listening must not keep the process alive once the run is over
    process.channel?.unref();
  }
  return {
    signal: controller.signal, by: () => by,
    remove: () => { remove(); process.off('message', fromApp); },
  };
}
