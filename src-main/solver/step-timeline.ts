// Per-step host timeline of a rank of a multi-rank run, for finding where a step's time goes between ranks
// (DSMC_TIMELINE_DIR=DIR): monotonic timestamps of the exchange's events (the clock is CLOCK_MONOTONIC, shared
// by every process of one host, so ranks' timelines line up), written as DIR/rank-R.jsonl when the rank ends.
// bench/timeline-report.mjs reads them. Off (null) unless the variable is set.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One step's events: name -> microseconds on the host's monotonic clock. */
type StepEvents = Record<string, number>;

export class StepTimeline {
  private readonly steps = new Map<number, StepEvents>();

  constructor(private readonly dir: string) {}

  /** Records event `name` of step `step` now (the first time only, for events that can happen twice). */
  mark(step: number, name: string): void {
    let events = this.steps.get(step);
    if (!events) this.steps.set(step, (events = {}));
    events[name] ??= Number(process.hrtime.bigint()) / 1000;
  }

  /** Marks `name` when the GPU finished the work submitted so far (onSubmittedWorkDone). */
  markWhenDone(step: number, name: string, queue: GPUQueue): void {
    void queue.onSubmittedWorkDone().then(() => this.mark(step, name), () => undefined);
  }

  /** Forgets the steps recorded so far (after the warm-up). */
  clear(): void {
    this.steps.clear();
  }

  /** Writes DIR/rank-R.jsonl (one line per step: {"step", events...}) through a temporary name. */
  write(rank: number): string {
    const file = join(this.dir, `rank-${rank}.jsonl`);
    const lines = [...this.steps].sort((a, b) => a[0] - b[0]).map(([step, ev]) => JSON.stringify({ step, ...ev }));
    writeFileSync(`${file}.tmp`, `${lines.join('\n')}\n`);
    renameSync(`${file}.tmp`, file);
    return file;
  }
}

/** The process's timeline, or null when DSMC_TIMELINE_DIR is not set. */
export const stepTimeline: StepTimeline | null = process.env.DSMC_TIMELINE_DIR ? new StepTimeline(process.env.DSMC_TIMELINE_DIR) : null;
