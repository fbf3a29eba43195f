// Reads a case file's text safely: only a regular file (a folder, FIFO, device or socket is refused without
// blocking on it), checked with fstat on the open descriptor, at most MAX_CASE_BYTES, and valid UTF-8.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { MAX_CASE_BYTES, tooBigError } from '../common/case-limits.js';
import { CaseError, ROOT_PATH } from '../common/case-errors.js';
import { fileKindOf } from '../store/file-kind.js';


/** Opens `path` for reading without blocking (a FIFO with no writer would block a plain open); errors name the file. */
function openForReading(path: string): number {
  try {
    return openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' ? 'this user may not read it (check its permissions)'
      : code === 'ENOENT' ? 'it does not exist' : code === 'ELOOP' ? 'it is a symbolic link loop' : (e as Error).message;
    throw new Error(`cannot read the case file ${path}: ${why}; give the path of a readable .json case file`);
  }
}

/** The whole text of the case file at `path` (UTF-8, a leading byte-order mark kept for parseCaseJson to drop). */
export function readCaseText(path: string): string {
  const fd = openForReading(path);
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new Error(`the case file ${path} is a folder, not a file; give the path of a .json case file inside it, or a preset name (dsmc presets)`);
    if (!st.isFile()) throw new Error(`the case file ${path} is ${fileKindOf(st)}, not a regular file; save the case to a .json file and give its path`);
    if (st.size > MAX_CASE_BYTES) throw tooBigError(st.size, `the case file ${path}`);
    // read at most one byte more than the limit: a file that grows while it is read is still caught
    const buf = Buffer.alloc(Math.min(st.size, MAX_CASE_BYTES) + 1);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    if (n > MAX_CASE_BYTES) throw tooBigError(n, `the case file ${path}`);
    return decodeUtf8(buf.subarray(0, n), path);
  } finally {
    closeSync(fd);
  }
}

/** Decodes UTF-8, refusing other encodings with the offset of the first bad byte. */
function decodeUtf8(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    const at = text.indexOf('\ufffd');
    const line = text.slice(0, Math.max(0, at)).split('\n').length;
    throw new CaseError([{
      path: ROOT_PATH,
      message: `the case file ${path} is not UTF-8 text (a bad byte on line ${line}); expected a JSON file in UTF-8: save it as UTF-8 in your editor`,
    }]);
  }
}
