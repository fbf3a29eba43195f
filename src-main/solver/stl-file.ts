// Reads a body's STL file safely: only a regular file (fstat on a descriptor opened without blocking, so a FIFO
// or a device named as the mesh cannot hang the run or fill the memory), and at most MAX_STL_BYTES.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

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
    const buf = Buffer.alloc(st.size);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
