// How a relayout (a rank moving to a new subdomain after a rebalance) is split into rounds: each round takes a slice
// of every rank's particles, so that one round's migrant records of all destinations, and the arrivals a rank takes
// in, stay within one buffer binding however many particles change hands. Every rank computes the same count.

/**
 * Bytes of migrant records one round may emit (all destinations together): half of WebGPU's default
 * maxStorageBufferBindingSize (128 MiB), which every adapter offers, so ranks on any adapters agree and the buffers'
 * growth headroom stays inside a binding.
 */
export const RELAYOUT_ROUND_BYTES = 64 * 1024 * 1024;

/** Round bytes for ranks whose adapters' smallest storage binding is `minBinding`: half of it, RELAYOUT_ROUND_BYTES at least. */
export function relayoutRoundBytes(minBinding: number): number {
  return Math.max(RELAYOUT_ROUND_BYTES, 16 * Math.floor(minBinding / 32));
}

/** Particles of one rank in one round: any one destination's segment of them, times the ranks, fits RELAYOUT_ROUND_BYTES. */
export function relayoutRoundParticles(worldSize: number, migrantWords: number, roundBytes = RELAYOUT_ROUND_BYTES): number {
  return Math.max(256, Math.floor(roundBytes / (4 * migrantWords * Math.max(1, worldSize))));
}

/** Rounds of a relayout when the most loaded rank holds `largest` particles. */
export function relayoutRounds(largest: number, worldSize: number, migrantWords: number, roundBytes = RELAYOUT_ROUND_BYTES): number {
  return Math.max(1, Math.ceil(largest / relayoutRoundParticles(worldSize, migrantWords, roundBytes)));
}

/** How a relayout runs: its rounds, the particles each round takes, and the migrant slots per destination it needs. */
export interface RelayoutPlan {
  rounds: number;
  perRound: number;
  segments: number;
}

/**
 * The relayout plan, the same on every rank: when `maxSend` (the most particles one rank sends another, known exactly
 * from the cell counts the split was made from) lets every destination's records fit one round's bytes, one round takes
 * every particle and the segments hold maxSend; otherwise rounds of relayoutRoundParticles, each segment holding a
 * whole round (`largest`: the particles of the most loaded rank).
 */
export function relayoutPlan(largest: number, worldSize: number, migrantWords: number, roundBytes = RELAYOUT_ROUND_BYTES, maxSend?: number): RelayoutPlan {
  if (maxSend !== undefined && maxSend * 4 * migrantWords * Math.max(1, worldSize) <= roundBytes) {
    return { rounds: 1, perRound: Math.max(1, largest), segments: Math.max(1, maxSend) };
  }
  const perRound = relayoutRoundParticles(worldSize, migrantWords, roundBytes);
  return { rounds: relayoutRounds(largest, worldSize, migrantWords, roundBytes), perRound, segments: perRound };
}
