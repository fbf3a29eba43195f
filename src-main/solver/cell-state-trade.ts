// A rank's trade of collision state after a re-split: it sends every other rank the (sigma c_r)_max and remainders of
// the cells it gives it and assembles its new box's state from the cells it keeps and the parts it gets
// (cluster/decomposition/cell-handover.ts), through the peer links as one message each way between two steps
// (exchange-sequence.ts: CELL_STATE_EXCHANGE), before the relayout's rounds move the particles.
import { assembleCollisionState, handoverCounts, handoverParts, type CollisionState } from '../cluster/decomposition/cell-handover.js';
import type { Decomposition } from '../cluster/decomposition/types.js';
import { frameAs } from '../cluster/transport/message-codec.js';
import type { RankChannel } from '../cluster/transport/rank-channel.js';

/** What a trade gives a rank: its collision state over its new box, and every rank's particles and sends of the relayout. */
export interface Traded {
  state: CollisionState;
  /** Every rank's live particles at the trade (the relayout's rounds follow the most loaded). */
  particles: number[];
  /** sendsTo[r][d]: the particles rank r gives rank d in the relayout (0 on the diagonal), the same on every rank. */
  sendsTo: number[][];
}

/**
 * Trades with every other rank the collision state of the cells that go from split `from` to split `to` (exchange
 * number `sequence`) and returns this rank's over its new box; `own` is its state over its box in `from`. With each
 * part goes the sender's particle count and what it gives every rank (from `counts`, its cells' particles now), so
 * that every rank plans the relayout from the counts of this moment, whenever the split was decided.
 */
export async function tradeCollisionState(ch: RankChannel, sequence: number, from: Decomposition, to: Decomposition, own: CollisionState, counts: ArrayLike<number>,
  particles: number, timeoutMs: number): Promise<Traded> {
  const self = ch.rank;
  const others = from.boxes.map((_, r) => r).filter((r) => r !== self);
  const parts = handoverParts(own, from.boxes[self], to.boxes, self);
  const mine = handoverCounts(counts, from.boxes[self], to.boxes, self);
  const row = Float64Array.from([particles, ...mine]);
  await Promise.all(others.map((peer) => ch.sendToPeer(peer, { step: sequence, particles: 0 }, [parts[peer], row])));
  const got = await ch.receiveFromPeers({ step: sequence, from: others, timeoutMs });
  // the frames are views of landing buffers valid until this rank's next send to their sender: assembled (and the
  // rows copied) before it
  const received = from.boxes.map((_, r) => (r === self ? new Float32Array(0) : frameAs(got.get(r)!.frames[0] ?? new Uint8Array(0), Float32Array)));
  const rows = from.boxes.map((_, r) => {
    if (r === self) return [...row];
    const frame = got.get(r)!.frames[1];
    const theirs = frame ? [...frameAs(frame, Float64Array)] : [];
    if (theirs.length !== to.boxes.length + 1) throw new Error(`rank ${r} sent ${theirs.length} numbers of particles with its collision state; ${to.boxes.length + 1} were expected (its count, then what it gives every rank)`);
    return theirs;
  });
  return {
    state: assembleCollisionState(to.boxes[self], self, from.boxes, own, received),
    particles: rows.map((r) => r[0]),
    sendsTo: rows.map((r) => r.slice(1)),
  };
}
