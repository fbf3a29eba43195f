// Terminal progress bar for runs (cli-progress): step, particle-steps/s and ETA, on stderr.
import cliProgress from 'cli-progress';
import type { Progress } from '../solver/loop-types.js';

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
