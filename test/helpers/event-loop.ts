// Keeps a long loop of synchronous work from blocking the test worker: vitest's fork worker must answer its main
// process within 60 s ("Timeout calling onTaskUpdate"), which it cannot while its event loop is busy.

/**
 * A function to await inside such a loop: it gives the event loop one turn (setImmediate) once `ms` have passed
 * since the last turn it gave, and returns at once otherwise (so it costs nothing per case).
 */
export function turnEvery(ms = 250): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < ms) return;
    await new Promise((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}
