// The relayout plan (src-main/solver/relayout-rounds.ts): one round when the most any rank sends another fits one
// round's bytes for every destination, else rounds of a slice each whose records fit whatever the destinations.
import { describe, expect, it } from 'vitest';
import { relayoutPlan, relayoutRoundParticles, relayoutRounds } from '../../src-main/solver/relayout-rounds.js';

describe('relayout plan', () => {
  const words = 9;
  const bytes = 64 * 1024 * 1024;

  it('takes every particle in one round, segments of maxSend, when maxSend\'s records fit a round for every destination', () => {
    const fits = Math.floor(bytes / (4 * words * 4));
    expect(relayoutPlan(44e6, 4, words, bytes, fits)).toEqual({ rounds: 1, perRound: 44e6, segments: fits });
    expect(relayoutPlan(44e6, 4, words, bytes, 0)).toEqual({ rounds: 1, perRound: 44e6, segments: 1 });
  });

  it('falls back to rounds of relayoutRoundParticles when maxSend does not fit or is unknown', () => {
    const fits = Math.floor(bytes / (4 * words * 4));
    const rounds = { rounds: relayoutRounds(44e6, 4, words, bytes), perRound: relayoutRoundParticles(4, words, bytes), segments: relayoutRoundParticles(4, words, bytes) };
    expect(rounds.rounds).toBeGreaterThan(1);
    expect(relayoutPlan(44e6, 4, words, bytes, fits + 1)).toEqual(rounds);
    expect(relayoutPlan(44e6, 4, words, bytes)).toEqual(rounds);
  });
});
