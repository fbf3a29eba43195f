// Same-host fast path of the peer links (rank side): a migrate payload is written into a file of the run's private
// peer folder (tmpfs under /dev/shm, see peer-folder.ts) and zeromq carries only the header, which names the slot.
// Each link (from -> to) has two files, `<folder>/<from>-<to>-<slot>`, opened once and kept open; a message is
// written at position 0 (the file may be longer: the header's frameBytes say how much is valid). The receiver
// reads a message as soon as its header arrives, into a landing buffer per (sender, slot), reused and grown.
//
// Why two slots are enough: ranks exchange in lockstep. A rank sends its message for exchange s to every peer, then
// waits for theirs; so a peer is at most one message ahead on a link: it needs this rank's message for s before it
// can send s+1. And a rank uses the frames of exchange s synchronously (the solver uploads them with
// queue.writeBuffer, which copies) before it sends its message for s+1. So when message n+2 of a link is written,
// message n (same slot) has been read and used. PeerLinks does not take that on trust: every migrate header carries
// `ack`, how many of the receiver's messages the sender has handed to its caller (received frames are valid until
// this rank's next send to their sender), and message n goes into a file only when the peer acknowledged n-1 of
// them; otherwise (a caller that sends ahead) it goes through zeromq frames as before.
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { TransportError } from './errors.js';
import { touchPagesAsync, writeZerosAsync } from './page-prefault.js';

/** File slots per link (see the header comment for why two suffice). */
export const PEER_FILE_SLOTS = 2;

/** Open flags that never follow a symbolic link (O_NOFOLLOW where the platform has it). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The file of slot `slot` of the link from rank `from` to rank `to`. */
export function peerFilePath(folder: string, from: number, to: number, slot: number): string {
  return join(folder, `${from}-${to}-${slot}`);
}

/**
 * Pages being taken for a big message known ahead (PeerLinks.prepare), off this thread: `safe`, what the file or buffer
 * held when it began (a message up to that size never meets the zeros being written), `target`, what it will hold.
 */
interface Prefault {
  safe: number;
  target: number;
  done: Promise<void>;
}

/**
 * Zeros being written past a slot file's end (OutgoingFiles.prefault): `safe` grows as they are written (a message up
 * to that size never meets them), and the messages waiting for more wait only until the zeros pass their end. Waiting
 * for all of them is likely what held a re-split's trade of the cells' collision state (a few MB, sent while the
 * relayout's files of some 290 MB a slot were still being prefaulted) for 0.7 s on the hypersonic wedge
 * (docs/PERFORMANCE.md, twenty-ninth session; not yet measured since).
 */
interface FilePrefault extends Prefault {
  waiters: { bytes: number; resolve: () => void }[];
}

/** The sending end of one link: one file per slot, created (mode 0600) on first use and kept open. */
export class OutgoingFiles {
  private readonly fds: Array<number | null> = new Array(PEER_FILE_SLOTS).fill(null);
  private readonly prefaults: Array<FilePrefault | null> = new Array(PEER_FILE_SLOTS).fill(null);

  constructor(
    readonly folder: string,
    readonly from: number,
    readonly to: number,
  ) {}

  /** Writes `frames` one after another from position 0 of slot `slot`'s file; throws the system error on failure. */
  write(slot: number, frames: readonly Uint8Array[]): void {
    const fd = this.open(slot);
    let at = 0;
    for (const f of frames) {
      for (let done = 0; done < f.byteLength;) done += writeSync(fd, f, done, f.byteLength - done, at + done);
      at += f.byteLength;
    }
  }

  /**
   * Makes slot `slot`'s file hold at least `bytes` (zeros written past its end by the thread pool: this thread goes
   * on), so that a big message known ahead (a relayout's) is later written into pages tmpfs has already given it.
   * A message that would reach into the zeros still being written waits until they pass its end (pendingFor); a failed
   * write is left to the send (which writes, or falls back to frames, as ever).
   */
  prefault(slot: number, bytes: number): void {
    const fd = this.open(slot);
    const before = this.prefaults[slot];
    const size = before ? before.target : fstatSync(fd).size;
    if (size >= bytes) return;
    // a prefault asked for while one runs goes on from where that one ends, under the same entry
    const entry: FilePrefault = before ?? { safe: size, target: bytes, done: Promise.resolve(), waiters: [] };
    entry.target = bytes;
    entry.done = entry.done
      .then(() => writeZerosAsync(fd, size, bytes, (end) => this.zerosReach(entry, end)))
      .catch(() => undefined)
      .finally(() => {
        // the last one asked for: every waiting message goes on (past a failed write, the send writes it as ever)
        if (entry.target !== bytes) return;
        if (this.prefaults[slot] === entry) this.prefaults[slot] = null;
        this.zerosReach(entry, Infinity);
      });
    this.prefaults[slot] = entry;
  }

  /** Notes that the zeros of `entry` reach byte `end`: the messages waiting for no more go on. */
  private zerosReach(entry: FilePrefault, end: number): void {
    entry.safe = Math.max(entry.safe, end);
    const ready = entry.waiters.filter((w) => w.bytes <= entry.safe);
    entry.waiters = entry.waiters.filter((w) => w.bytes > entry.safe);
    for (const w of ready) w.resolve();
  }

  /**
   * What a message of `bytes` in slot `slot` must wait for: the zeros being written there to pass its end (it would
   * reach into them), or null.
   */
  pendingFor(slot: number, bytes: number): Promise<void> | null {
    const p = this.prefaults[slot];
    if (!p || bytes <= p.safe) return null;
    return new Promise<void>((resolve) => p.waiters.push({ bytes, resolve }));
  }

  /** When every prefault in flight is done. */
  async settled(): Promise<void> {
    await Promise.all(this.prefaults.map((p) => p?.done));
  }

  /** Slot `slot`'s file, opened (created, mode 0600) on first use. */
  private open(slot: number): number {
    let fd = this.fds[slot];
    if (fd === null) {
      fd = openSync(peerFilePath(this.folder, this.from, this.to, slot), constants.O_WRONLY | constants.O_CREAT | NOFOLLOW, 0o600);
      this.fds[slot] = fd;
    }
    return fd;
  }

  /** Closes the files (they stay in the folder until the orchestrator removes it); one being prefaulted once that is done (its number must not be reused meanwhile). */
  close(): void {
    this.fds.forEach((fd, slot) => {
      if (fd === null) return;
      const p = this.prefaults[slot];
      if (p) void p.done.then(() => closeQuietly(fd));
      else closeQuietly(fd);
    });
    this.fds.fill(null);
  }
}

/** The receiving end of every link into one rank: an open file and a landing buffer per (sender, slot). */
export class LandingFiles {
  private readonly fds = new Map<string, number>();
  private readonly buffers = new Map<string, Uint8Array>();
  /** Landing buffers whose pages the thread pool is taking (PeerLinks.prepare), by (sender, slot); in use once done. */
  private readonly filling = new Map<string, Prefault>();

  constructor(
    readonly folder: string,
    readonly rank: number,
  ) {}

  /**
   * Reads the message of `step` that rank `from` wrote in slot `slot` (frames of `sizes` bytes, one after another)
   * and returns views of the landing buffer (or of `into`), one per frame; they stay valid until the next message in
   * that slot.
   */
  read(from: number, slot: number, sizes: readonly number[], step: number, into?: Uint8Array): Uint8Array[] {
    const key = `${from}-${slot}`;
    const path = peerFilePath(this.folder, from, this.rank, slot);
    const total = sizes.reduce((s, n) => s + n, 0);
    // `into`: where the caller wants this message (it holds total bytes), instead of the landing buffer
    const buffer = into ?? this.landingBuffer(key, total);
    let got = 0;
    try {
      let fd = this.fds.get(key);
      if (fd === undefined) {
        fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
        this.fds.set(key, fd);
      }
      for (let n = -1; got < total && n !== 0; got += n) n = readSync(fd, buffer, got, total - got, got);
    } catch (e) {
      throw new TransportError(
        `rank ${this.rank} could not read the step ${step} migrants rank ${from} put in ${path} (${(e as Error).message}): ` +
          'the run\'s peer folder was removed (the orchestrator ended) or the ranks do not share this host\'s /dev/shm; ' +
          'set DSMC_PEER_SHM=0 to send migrants through zeromq instead',
      );
    }
    if (got < total) {
      throw new TransportError(
        `rank ${this.rank} read only ${got} of the ${total} bytes of step ${step} migrants rank ${from} put in ${path}: ` +
          'the file was truncated by something other than the run; run again, and set DSMC_PEER_SHM=0 to send migrants through zeromq if it repeats',
      );
    }
    const frames: Uint8Array[] = [];
    let at = 0;
    for (const n of sizes) {
      frames.push(buffer.subarray(at, at + n));
      at += n;
    }
    return frames;
  }

  /** The landing buffer of (sender, slot) `key`, grown to hold `bytes`. */
  private landingBuffer(key: string, bytes: number): Uint8Array {
    let buffer = this.buffers.get(key);
    if (buffer === undefined || buffer.byteLength < bytes) {
      // grown with headroom: migrant counts vary from step to step; a fresh ArrayBuffer starts aligned for frameAs
      buffer = new Uint8Array(Math.max(bytes, Math.ceil((buffer?.byteLength ?? 0) * 1.5)));
      this.buffers.set(key, buffer);
    }
    return buffer;
  }

  /**
   * Makes the landing buffer of rank `from`'s slot `slot` hold at least `bytes`, its pages taken by the thread pool
   * now (a big message known ahead: a relayout's), not while the message is read: a new buffer, in use once its
   * pages are in (a message read before lands in the buffer it would have used; pendingFor says when to wait).
   */
  prefault(from: number, slot: number, bytes: number): void {
    const key = `${from}-${slot}`;
    const current = this.buffers.get(key)?.byteLength ?? 0;
    const pending = this.filling.get(key);
    if (current >= bytes || (pending && pending.target >= bytes)) return;
    const buffer = new Uint8Array(Math.max(bytes, Math.ceil(current * 1.5)));
    const entry: Prefault = { safe: current, target: buffer.byteLength, done: Promise.resolve() };
    entry.done = touchPagesAsync(buffer).then(() => {
      if ((this.buffers.get(key)?.byteLength ?? 0) < buffer.byteLength) this.buffers.set(key, buffer);
      if (this.filling.get(key) === entry) this.filling.delete(key);
    });
    this.filling.set(key, entry);
  }

  /** The prefault a message of `bytes` from (from, slot) should wait for (the buffer it will land in), or null. */
  pendingFor(from: number, slot: number, bytes: number): Promise<void> | null {
    const key = `${from}-${slot}`;
    if ((this.buffers.get(key)?.byteLength ?? 0) >= bytes) return null;
    const p = this.filling.get(key);
    return p && p.target >= bytes ? p.done : null;
  }

  /** When every prefault in flight is done. */
  async settled(): Promise<void> {
    await Promise.all([...this.filling.values()].map((p) => p.done));
  }

  /** Closes the files; landing buffers are left to the garbage collector. */
  close(): void {
    for (const fd of this.fds.values()) closeQuietly(fd);
    this.fds.clear();
  }
}

/** Closes a descriptor, ignoring errors (closing is best effort at shutdown). */
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed or never valid: nothing to release
  }
}
