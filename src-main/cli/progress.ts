// Terminal progress bar for runs (cli-progress): step, particle-steps/s and ETA, on stderr; without a terminal
// (a batch job, a pipe) a stats line every --stats-every seconds instead.
import cliProgress from 'cli-progress';
import type { Progress, StepStats } from '../solver/loop-types.js';
import { formatLiveStats, type LiveStatsOptions } from '../solver/live-stats.js';

/** A progress reporter; does nothing when stderr is not a terminal. */
export function progressBar(enabled: boolean): { update(p: Progress): void; stop(): void } {
  if (!enabled || !process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: 'step {value}/{total} |{bar}| {percentage}% | {rate} particle-steps/s | {particles} particles | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const payload = { rate: p.particleStepsPerSecond.toExponential(3), particles: p.particles };
      if (!started) {
        bar.start(p.steps, p.step, payload);
        started = true;
      } else bar.update(p.step, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** --stats-every SECONDS, checked (default 30): how often a run without a terminal prints a stats line. */
export function statsEveryOf(text: string | undefined): number {
  const s = Number(text ?? '30');
  if (!(s > 0 && s <= 86_400)) throw new Error(`--stats-every: got "${text}"; expected seconds from 0.1 to 86400 between stats lines (default 30; --no-progress turns them off)`);
  return s;
}

/** Stats lines on stderr every `everySeconds` when stderr is not a terminal (no bar there); undefined otherwise. */
export function statsLines(enabled: boolean, everySeconds: number): LiveStatsOptions | undefined {
  if (!enabled || process.stderr.isTTY) return undefined;
  return { everySeconds, onStats: (s) => process.stderr.write(formatLiveStats(s) + '\n') };
}

/**
 * The same for a multi-rank run, from the merged step statistics and the progress (the temperature needs a
 * reduction on every rank, so it is left out: "T -"). Undefined when stderr is a terminal or progress is off.
 */
export function multiRankStatsLines(enabled: boolean, everySeconds: number): { onSteps(s: StepStats[]): void; onProgress(p: Progress): void } | undefined {
  if (!enabled || process.stderr.isTTY) return undefined;
  let collisions = 0, counted = 0, last = performance.now();
  return {
    onSteps(steps) {
      for (const s of steps) { collisions += s.collisions; counted += 1; }
    },
    onProgress(p) {
      const now = performance.now();
      if ((now - last) / 1000 < everySeconds) return;
      process.stderr.write(formatLiveStats({ step: p.step, steps: p.steps, particles: p.particles, collisionsPerStep: counted > 0 ? collisions / counted : 0,
        temperature: NaN, elapsedSeconds: p.elapsedSeconds }) + '\n');
      last = now;
      collisions = 0;
      counted = 0;
    },
  };
}
