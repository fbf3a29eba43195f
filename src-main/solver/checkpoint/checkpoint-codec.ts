// The binary layout of one checkpoint file: a magic word, a JSON header (what the file is, its meta data
// and where each array lies) and the arrays, each 8-byte aligned. Decoding checks every length, so a
// truncated or damaged file is refused with an error naming it instead of being half read.

/** Magic word at the start of every checkpoint file (format version 1). */
const MAGIC = 'DSMCCKP1';

/** Element types an array of a checkpoint file may have. */
type ArrayKind = 'f32' | 'u32' | 'f64';
/** A typed array a checkpoint file holds. */
export type CheckpointArray = Float32Array | Uint32Array | Float64Array;
/** A typed array decoded from a checkpoint file (over its own ArrayBuffer). */
export type DecodedArray = Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Float64Array<ArrayBuffer>;

/** Thrown when a checkpoint file or folder is damaged, incomplete or does not belong to the run. */
export class CheckpointCorrupt extends Error {}

/** The kind tag of a typed array. */
function kindOf(a: CheckpointArray): ArrayKind {
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Uint32Array) return 'u32';
  return 'f64';
}

/** Rounds up to a multiple of 8. */
function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/** Encodes meta data and named arrays as one file's bytes. */
export function encodeCheckpoint(kind: string, meta: unknown, arrays: Record<string, CheckpointArray>): Buffer {
  const entries: { name: string; type: ArrayKind; length: number; offset: number }[] = [];
  let offset = 0;
  for (const [name, a] of Object.entries(arrays)) {
    entries.push({ name, type: kindOf(a), length: a.length, offset });
    offset = align8(offset + a.byteLength);
  }
  const header = Buffer.from(JSON.stringify({ kind, meta, arrays: entries, dataBytes: offset }), 'utf8');
  const dataStart = align8(MAGIC.length + 4 + header.length);
  const out = Buffer.alloc(dataStart + offset);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(header.length, MAGIC.length);
  header.copy(out, MAGIC.length + 4);
  for (const e of entries) {
    const a = arrays[e.name];
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(out, dataStart + e.offset);
  }
  return out;
}

/** A decoded checkpoint file. */
export interface DecodedCheckpoint {
  kind: string;
  meta: unknown;
  arrays: Record<string, DecodedArray>;
}

/** Decodes a checkpoint file's bytes (file: its path, for the error); throws CheckpointCorrupt on any inconsistency. */
export function decodeCheckpoint(bytes: Buffer, file: string, expectKind: string): DecodedCheckpoint {
  const bad = (why: string) => new CheckpointCorrupt(`checkpoint file ${file} is damaged: ${why}`);
  if (bytes.length < MAGIC.length + 4 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) throw bad('it does not start with the checkpoint magic word');
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  if (MAGIC.length + 4 + headerLength > bytes.length) throw bad(`its header claims ${headerLength} bytes, more than the file holds (truncated?)`);
  let header: { kind: string; meta: unknown; arrays: { name: string; type: ArrayKind; length: number; offset: number }[]; dataBytes: number };
  try {
    header = JSON.parse(bytes.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + headerLength));
  } catch {
    throw bad('its header is not valid JSON');
  }
  if (header.kind !== expectKind) throw bad(`it holds "${header.kind}", expected "${expectKind}"`);
  const dataStart = align8(MAGIC.length + 4 + headerLength);
  if (bytes.length !== dataStart + header.dataBytes) throw bad(`it has ${bytes.length} bytes, its header says ${dataStart + header.dataBytes} (truncated or extended)`);
  const arrays: Record<string, DecodedArray> = {};
  for (const e of header.arrays) {
    const width = e.type === 'f64' ? 8 : 4;
    const end = e.offset + e.length * width;
    if (!(e.offset >= 0 && end <= header.dataBytes)) throw bad(`array ${e.name} lies outside the file`);
    // copy out so the typed array is aligned whatever the Buffer's pool offset
    const raw = new Uint8Array(bytes.subarray(dataStart + e.offset, dataStart + end)).buffer;
    arrays[e.name] = e.type === 'f32' ? new Float32Array(raw) : e.type === 'u32' ? new Uint32Array(raw) : new Float64Array(raw);
  }
  return { kind: header.kind, meta: header.meta, arrays };
}
