// Waiting with a cap: used where closing must not hang on a peer that is gone.

/** Resolves when `promise` settles or after ms milliseconds, whichever is first (never rejects; the timer is cleared). */
export function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    promise.then(
      () => { clearTimeout(timer); resolve(); },
      () => { clearTimeout(timer); resolve(); },
    );
  });
}
