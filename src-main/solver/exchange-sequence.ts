// Sequence numbers of the exchanges between ranks (the transport requires them increasing): the migrants of step s
// travel as exchange EXCHANGES_PER_STEP * s, and the exchanges between step s and s + 1 (the ranks meeting before the
// clock starts, the rounds of a relayout after a rebalance) take the numbers after it.

/** Sequence numbers per step: one for the step's migrants, the rest for exchanges between steps. */
export const EXCHANGES_PER_STEP = 1 << 16;

/** The sequence number of step s's migrant exchange. */
export function stepExchange(step: number): number {
  return EXCHANGES_PER_STEP * step;
}

/** The sequence number of the k-th exchange (from 0) between step s and step s + 1. */
export function betweenSteps(step: number, k: number): number {
  if (!(k >= 0 && k < EXCHANGES_PER_STEP - 1)) throw new Error(`internal: exchange ${k} between steps ${step} and ${step + 1} is out of range`);
  return EXCHANGES_PER_STEP * step + 1 + k;
}

/** Whether sequence number n is a step's migrant exchange (not the ranks' meeting or a relayout's round between steps). */
export function isStepExchange(n: number): boolean {
  return n % EXCHANGES_PER_STEP === 0;
}

/** Exchange numbers between two steps: the ranks' meeting before the clock, their trade of the collision state of the cells a re-split moves, and the relayout's first round (the rest follow it). */
export const MEETING_EXCHANGE = 0;
export const CELL_STATE_EXCHANGE = 1;
export const RELAYOUT_FIRST_EXCHANGE = 2;
