// placeArrivals: a relayout's arrivals read into their places in the upload staging stay there; records elsewhere
// (a landing buffer, or places that shifted because a peer sent another count) end up one after another, none
// overwritten before it was moved.
import { describe, expect, it } from 'vitest';
import { placeArrivals } from '../../src-main/solver/place-arrivals.js';

/** `n` bytes that name their peer and position. */
function records(peer: number, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (peer * 61 + i * 7) & 0xff);
}

/** The bytes expected from `from` on: each peer's records one after another. */
function expected(parts: Uint8Array[]): number[] {
  return parts.flatMap((p) => [...p]);
}

describe('placeArrivals', () => {
  it('leaves records read into their places as they are (and says so); empty ones count as in place', () => {
    const staging = new Uint8Array(200);
    const parts = [records(0, 40), records(1, 0), records(2, 56)];
    let at = 16;
    const views = parts.map((p) => {
      const v = staging.subarray(at, at + p.length);
      v.set(p);
      at += p.length;
      return v;
    });
    expect(placeArrivals(staging, 16, views)).toBe(true);
    expect([...staging.subarray(16, 16 + 96)]).toEqual(expected(parts));
    // nothing at all arrived: not "in place"
    expect(placeArrivals(staging, 16, [new Uint8Array(0), new Uint8Array(0)])).toBe(false);
  });

  it('moves records whose places shifted (a peer sent fewer than readied) and ones from elsewhere, overwriting none before it moved', () => {
    const staging = new Uint8Array(300);
    // readied: 40, 50, 60 bytes from byte 16; peer 0 sent 30 (read in place), peer 1 sent 50 (read at its readied
    // place, 10 bytes later than it belongs), peer 2's records came into a landing buffer
    const parts = [records(0, 30), records(1, 50), records(2, 60)];
    const v0 = staging.subarray(16, 46);
    v0.set(parts[0]);
    const v1 = staging.subarray(56, 106);
    v1.set(parts[1]);
    const landing = new Uint8Array(parts[2]);
    expect(placeArrivals(staging, 16, [v0, v1, landing])).toBe(false);
    expect([...staging.subarray(16, 16 + 140)]).toEqual(expected(parts));
  });

  it('moves records read to places later than theirs forward without losing the next peer\'s (a peer sent more than readied)', () => {
    const staging = new Uint8Array(300);
    // peer 0's 70 bytes did not fit its readied 40 and came into a landing buffer; peers 1 and 2 were read in place
    // for the readied layout (1 at 56, 2 at 106) and must move 30 bytes on, 1 over 2's records
    const parts = [records(0, 70), records(1, 50), records(2, 60)];
    const v1 = staging.subarray(56, 106);
    v1.set(parts[1]);
    const v2 = staging.subarray(106, 166);
    v2.set(parts[2]);
    expect(placeArrivals(staging, 16, [new Uint8Array(parts[0]), v1, v2])).toBe(false);
    expect([...staging.subarray(16, 16 + 180)]).toEqual(expected(parts));
  });
});
