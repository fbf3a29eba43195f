// The zeros a relayout's big message known ahead has written into a peer file slot (OutgoingFiles.prefault): a message
// that would reach into them waits only until they pass its end, not for the whole file, and a message within what
// the file held never waits.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutgoingFiles, peerFilePath } from '../../src-main/cluster/transport/peer-files.js';

const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

/** A fresh folder for one link's files. */
function folder(): string {
  const f = mkdtempSync(join(tmpdir(), 'peer-prefault-'));
  folders.push(f);
  return f;
}

describe('a peer file slot being prefaulted', () => {
  it('lets a small message go once the zeros pass its end, while the rest are still being written', async () => {
    const dir = folder();
    const files = new OutgoingFiles(dir, 0, 1);
    files.write(0, [new Uint8Array(1000)]);
    // 64 MB of zeros: eight chunks of the thread pool, one after another
    files.prefault(0, 64 << 20);
    let all = false;
    void files.settled().then(() => { all = true; });
    // within what the file held: no wait
    expect(files.pendingFor(0, 1000)).toBeNull();
    const small = files.pendingFor(0, 2 << 20);
    expect(small).not.toBeNull();
    await small;
    // it went on after the first chunk, long before the last: the file is not yet full
    expect(all).toBe(false);
    expect(statSync(peerFilePath(dir, 0, 1, 0)).size).toBeLessThan(64 << 20);
    expect(files.pendingFor(0, 2 << 20)).toBeNull();
    // a message as big as the whole prefault waits for all of it
    const big = files.pendingFor(0, 64 << 20);
    expect(big).not.toBeNull();
    await big;
    expect(statSync(peerFilePath(dir, 0, 1, 0)).size).toBe(64 << 20);
    await files.settled();
    expect(files.pendingFor(0, 64 << 20)).toBeNull();
    files.close();
  });

  it('a prefault asked for while one runs goes on from its end, and a message beyond both waits for both', async () => {
    const dir = folder();
    const files = new OutgoingFiles(dir, 0, 1);
    files.prefault(1, 16 << 20);
    files.prefault(1, 40 << 20);
    const mid = files.pendingFor(1, 20 << 20)!;
    const beyond = files.pendingFor(1, 48 << 20)!;
    await mid;
    expect(statSync(peerFilePath(dir, 0, 1, 1)).size).toBeGreaterThanOrEqual(20 << 20);
    // past everything asked for: released once the last prefault ends (the send then writes the message itself)
    await beyond;
    expect(statSync(peerFilePath(dir, 0, 1, 1)).size).toBe(40 << 20);
    files.close();
  });
});
