// A rank's trade of collision state after a re-split: it sends every other rank the (sigma c_r)_max and remainders of
// the cells it gives it and assembles its new box's state from the cells it keeps and the parts it gets
// (cluster/decomposition/cell-handover.ts), through the peer links as one message each way between two steps
// (exchange-sequence.ts: CELL_STATE_EXCHANGE), before the relayout's rounds move the particles.
import { assembleCollisionState, handoverParts, type CollisionState } from '../cluster/decomposition/cell-handover.js';
import type { Decomposition } from '../cluster/decomposition/types.js';
import { frameAs } from '../cluster/transport/message-codec.js';
import type { RankChannel } from '../cluster/transport/rank-channel.js';

/**
 * Trades with every other rank the collision state of the cells that go from split `from` to split `to` (exchange
 * number `sequence`) and returns this rank's over its new box; `own` is its state over its box in `from`.
 */
export async function tradeCollisionState(ch: RankChannel, sequence: number, from: Decomposition, to: Decomposition, own: CollisionState, timeoutMs: number): Promise<CollisionState> {
  const self = ch.rank;
  const others = from.boxes.map((_, r) => r).filter((r) => r !== self);
  const parts = handoverParts(own, from.boxes[self], to.boxes, self);
  await Promise.all(others.map((peer) => ch.sendToPeer(peer, { step: sequence, particles: 0 }, [parts[peer]])));
  const got = await ch.receiveFromPeers({ step: sequence, from: others, timeoutMs });
  // the frames are views of landing buffers valid until this rank's next send to their sender: assembled before it
  const received = from.boxes.map((_, r) => (r === self ? new Float32Array(0) : frameAs(got.get(r)!.frames[0] ?? new Uint8Array(0), Float32Array)));
  return assembleCollisionState(to.boxes[self], self, from.boxes, own, received);
}
