// Float64Array <-> BLOB: the raw little-endian bytes, so values (NaN included) come back bit-exact.
import { endianness } from 'node:os';

if (endianness() !== 'LE') throw new Error('the run database stores little-endian float64 blobs; this machine is big-endian');

/** The bytes of a Float64Array (a view, not a copy). */
export function float64ToBlob(a: Float64Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** A Float64Array copied out of a BLOB (copied so it is aligned and owns its memory). */
export function blobToFloat64(b: Buffer, what: string): Float64Array {
  if (b.byteLength % 8 !== 0) throw new Error(`${what}: blob of ${b.byteLength} bytes is not a whole number of float64 values; the database is damaged`);
  const out = new Float64Array(b.byteLength / 8);
  new Uint8Array(out.buffer).set(b);
  return out;
}
