// Reads a body's STL file safely: only a regular file (fstat on a descriptor opened without blocking, so a FIFO
// or a device named as the mesh cannot hang the run or fill the memory), and at most MAX_STL_BYTES.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { asciiTooLargeError, MAX_ASCII_STL_BYTES, MAX_BODY_TRIANGLES, tooManyTrianglesError } from '../common/geometry/stl.js';

/** Largest STL file read: 1 GiB, about 21 million triangles of a binary STL. */
export const MAX_STL_BYTES = 2 ** 30;

/** The bytes of the STL file at `path`; throws an Error saying what the file is and what to give instead. */
export function readStlFile(path: string): Uint8Array {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new Error('it is a folder, not a file; give the path of an .stl file');
    if (!st.isFile()) throw new Error('it is not a regular file (a device, FIFO or socket); save the mesh to an .stl file and give its path');
    if (st.size > MAX_STL_BYTES) throw new Error(`it is ${st.size} bytes; an STL file is read up to ${MAX_STL_BYTES} bytes (1 GiB): coarsen the mesh`);
    if (st.size > MAX_ASCII_STL_BYTES) checkLargeHead(fd, st.size);
    const buf = Buffer.alloc(st.size);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * For a file over MAX_ASCII_STL_BYTES, before reading it whole: only a binary STL (size 84 + 50 n) of at most
 * MAX_BODY_TRIANGLES triangles may be that large; anything else is refused from its first 84 bytes.
 */
function checkLargeHead(fd: number, size: number): void {
  const head = Buffer.alloc(84);
  readSync(fd, head, 0, 84, 0);
  const n = head.readUInt32LE(80);
  if (84 + 50 * n === size) {
    if (n <= MAX_BODY_TRIANGLES) return;
    throw tooManyTrianglesError(n, 'the binary STL');
  }
  if (/^\s*solid/i.test(head.toString('latin1'))) throw asciiTooLargeError(size);
  throw new Error(`not an STL file: it does not start with "solid" (ASCII) and its size ${size} bytes is not 84 + 50 x ${n} = ${84 + 50 * n} as the triangle count in its header requires (binary)`);
}
