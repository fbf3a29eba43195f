// Where an exchange's arrivals go in the upload staging: one after another. A relayout's are read from the peers'
// files straight into their places there (MigrationExchange.prepare); the upload then leaves them where they are.

/**
 * Puts the records of `incoming` one after another from byte `from` of `bytes`. Records already at their place there
 * stay; if any non-empty one is not, those lying inside `bytes` are copied out first, so that no copy overwrites
 * records still to be moved. True when records were there and every one was in place already.
 */
export function placeArrivals(bytes: Uint8Array, from: number, incoming: readonly Uint8Array[]): boolean {
  let at = from;
  let inPlace = true;
  let any = false;
  for (const a of incoming) {
    if (a.byteLength > 0) {
      any = true;
      if (a.buffer !== bytes.buffer || a.byteOffset !== bytes.byteOffset + at) inPlace = false;
    }
    at += a.byteLength;
  }
  if (inPlace) return any;
  const sources = incoming.map((a) => (a.buffer === bytes.buffer ? a.slice() : a));
  at = from;
  for (const a of sources) {
    bytes.set(a, at);
    at += a.byteLength;
  }
  return false;
}
