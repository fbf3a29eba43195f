// What a relayout costs this run, measured from the submits' wall times as the orchestrator sees them: a plain
// submit gives the seconds per particle-step of the slowest rank; the submit after a relayout takes longer by what the
// relayout cost (cell counts gathered, particles and sampling state moved, the extra sort), which divided by the
// particles moved gives the cost of moving one, in particle-steps. The rebalancer weighs a new split with it.
import { RELAYOUT_COST_STEPS } from './rebalancer.js';

export class RelayoutCostMeter {
  /** When the last submit was merged (NaN before the first: the first submit's time includes the start). */
  private last = NaN;
  /** Seconds per particle-step of the slowest rank in plain submits (an average of the latest ones). */
  private stepSeconds = 0;
  /** Particles moved by the relayout running before the next submit (0: none). */
  private pendingMoved = 0;
  /** The cost of moving one particle in particle-steps (RELAYOUT_COST_STEPS until measured). */
  movedParticleSteps = RELAYOUT_COST_STEPS;

  /** A submit of `steps` steps merged; `largest`: the particles of the most loaded rank. */
  submitDone(steps: number, largest: number, now = performance.now()): void {
    const seconds = (now - this.last) / 1000;
    this.last = now;
    if (!Number.isFinite(seconds) || steps <= 0 || largest <= 0) return;
    if (this.pendingMoved > 0) {
      // the relayout's own time: what this submit took beyond its steps at the plain rate
      if (this.stepSeconds > 0) {
        const extra = Math.max(0, seconds - steps * largest * this.stepSeconds);
        this.movedParticleSteps = Math.min(1e5, Math.max(1, extra / this.pendingMoved / this.stepSeconds));
      }
      this.pendingMoved = 0;
      return;
    }
    const rate = seconds / (steps * largest);
    this.stepSeconds = this.stepSeconds === 0 ? rate : 0.5 * (this.stepSeconds + rate);
  }

  /** A relayout moving `moved` particles runs before the next submit. */
  relayoutStarted(moved: number): void {
    this.pendingMoved = Math.max(1, moved);
  }
}
