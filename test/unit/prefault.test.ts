// The end-of-run arena (prefault.ts): arrays carved from one shared buffer, 8-byte aligned, fresh ones once it is used
// up; its worker touches every page without changing what the caller wrote meanwhile.
import { describe, expect, it } from 'vitest';
import { PrefaultedArena } from '../../src-main/solver/prefault.js';

describe('prefaulted arena', () => {
  it('hands out aligned, zeroed arrays of the shared buffer, then fresh ones once used up', async () => {
    const arena = new PrefaultedArena(100);
    const a = arena.take(Uint32Array, 3); // 12 bytes, the next one starts at 16
    const b = arena.take(Float64Array, 4);
    expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(b.buffer).toBe(a.buffer);
    expect(b.byteOffset).toBe(16);
    expect(Array.from(b)).toEqual([0, 0, 0, 0]);
    const c = arena.take(Float32Array, 40); // 160 bytes: more than is left
    expect(c.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(c.length).toBe(40);
    await arena.touched;
  });

  it('keeps what the caller wrote while the worker was touching the pages', async () => {
    // 64 MiB: the worker is still touching pages while this thread writes into all of them
    const arena = new PrefaultedArena(64 * 1024 * 1024);
    const words = arena.take(Uint32Array, 16 * 1024 * 1024);
    for (let i = 0; i < words.length; i += 256) words[i] = (i >>> 8) + 1;
    await arena.touched;
    let wrong = 0;
    for (let i = 0; i < words.length; i += 256) if (words[i] !== (i >>> 8) + 1) wrong += 1;
    expect(wrong).toBe(0);
  });
});
