// Taking memory pages ahead of a big message, off the JavaScript thread: zeros written past a tmpfs file's end and a
// fresh landing buffer's pages faulted in by libuv's thread pool (fs.write, and fs.read from /dev/zero), so that a
// rank's event loop goes on with its steps while the kernel hands out the pages (on an H200 host some 60-100 ms for a
// relayout's 125 MB, docs/PERFORMANCE.md). Where /dev/zero cannot be opened the buffer is filled on this thread.
import { close, open, read, write } from 'node:fs';

/** Bytes one thread-pool write or read takes (the pool's other threads stay free for the run's own file work). */
const CHUNK = 8 << 20;

/** One chunk of zeros every write shares (only read: no allocation per file, which would press V8's heap). */
let zeroChunk: Uint8Array | null = null;

/**
 * Writes zeros into `fd` from byte `from` up to `to`, chunk by chunk on the thread pool (`written` told how far the
 * zeros reach after each chunk); rejects on a write error.
 */
export async function writeZerosAsync(fd: number, from: number, to: number, written?: (end: number) => void): Promise<void> {
  const zeros = (zeroChunk ??= new Uint8Array(CHUNK));
  for (let at = from; at < to;) {
    const length = Math.min(zeros.byteLength, to - at);
    at += await new Promise<number>((resolve, reject) => write(fd, zeros, 0, length, at, (e, n) => (e ? reject(e) : resolve(n))));
    written?.(at);
  }
}

/** Faults in every page of `buffer` (it then holds zeros) by reading /dev/zero into it on the thread pool; on this thread where that fails. */
export async function touchPagesAsync(buffer: Uint8Array): Promise<void> {
  let fd: number;
  try {
    fd = await new Promise<number>((resolve, reject) => open('/dev/zero', 'r', (e, f) => (e ? reject(e) : resolve(f))));
  } catch {
    buffer.fill(0);
    return;
  }
  try {
    for (let at = 0; at < buffer.byteLength;) {
      const length = Math.min(CHUNK, buffer.byteLength - at);
      const n = await new Promise<number>((resolve, reject) => read(fd, buffer, at, length, null, (e, got) => (e ? reject(e) : resolve(got))));
      if (n === 0) throw new Error('/dev/zero ended');
      at += n;
    }
  } catch {
    buffer.fill(0);
  } finally {
    close(fd, () => undefined);
  }
}
