// The kind of a file that is not a regular file, in words, for the messages that refuse it (the run database, case
// files, output targets).
import type { Stats } from 'node:fs';

/** What a non-regular file is: a folder, a named pipe, a device, a socket. */
export function fileKindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}
