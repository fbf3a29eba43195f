// Ctrl-C (SIGINT) and SIGTERM during a run: the first asks the run to stop after the current submit,
// a second one stops the process at once.

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
