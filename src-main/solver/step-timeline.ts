// Per-step host timeline of a rank of a multi-rank run, for finding where a step's time goes between ranks
// (DSMC_TIMELINE_DIR=DIR): monotonic timestamps of the exchange's events (the clock is CLOCK_MONOTONIC, shared
// by every process of one host, so ranks' timelines line up), written as DIR/rank-R.jsonl when the rank ends.
// bench/timeline-report.mjs reads them. Off (null) unless the variable is set.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver, monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';

/** One step's events: name -> microseconds on the host's monotonic clock. */
type StepEvents = Record<string, number>;

/** Microseconds on the monotonic clock now. */
function nowMicros(): number {
  return Number(process.hrtime.bigint()) / 1000;
}

export class StepTimeline {
  private readonly steps = new Map<number, StepEvents>();
  /** Garbage collections: start (µs, same clock as the steps), duration (ms), kind (V8's flags). */
  private readonly gcs: { start: number; ms: number; kind: number }[] = [];
  /** Host work that may hold up a step (buffers grown, pipelines compiled): start (µs, the steps' clock), duration (ms), what. */
  private readonly hostWork: { start: number; ms: number; name: string }[] = [];
  /** performance.now() (ms) to the monotonic clock (µs). */
  private readonly offset = nowMicros() - performance.now() * 1000;
  private readonly loopDelay: IntervalHistogram;

  constructor(private readonly dir: string) {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        this.gcs.push({ start: this.offset + e.startTime * 1000, ms: e.duration, kind: ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind) ?? 0 });
      }
    }).observe({ entryTypes: ['gc'] });
    this.loopDelay = monitorEventLoopDelay({ resolution: 1 });
    this.loopDelay.enable();
  }

  /** Records event `name` of step `step` now (the first time only, for events that can happen twice). */
  mark(step: number, name: string): void {
    this.eventsOf(step)[name] ??= nowMicros();
  }

  /** Records a number about step `step` under `name` (migrant counts, which path the exchange took). */
  note(step: number, name: string, value: number): void {
    this.eventsOf(step)[name] = value;
  }

  /** Records host work `name` that began at performance.now() = startMs and ends now. */
  hostEvent(name: string, startMs: number): void {
    this.hostWork.push({ start: this.offset + startMs * 1000, ms: performance.now() - startMs, name });
  }

  /** The events of step `step` (made on first use). */
  private eventsOf(step: number): StepEvents {
    let events = this.steps.get(step);
    if (!events) this.steps.set(step, (events = {}));
    return events;
  }

  /** Marks `name` when the GPU finished the work submitted so far (onSubmittedWorkDone). */
  markWhenDone(step: number, name: string, queue: GPUQueue): void {
    void queue.onSubmittedWorkDone().then(() => this.mark(step, name), () => undefined);
  }

  /** Forgets the steps recorded so far (after the warm-up). */
  clear(): void {
    this.steps.clear();
    this.gcs.length = 0;
    this.hostWork.length = 0;
    this.loopDelay.reset();
  }

  /** Writes DIR/rank-R.jsonl (one line per step: {"step", events...}) through a temporary name; makes DIR if missing. */
  write(rank: number): string {
    mkdirSync(this.dir, { recursive: true });
    const file = join(this.dir, `rank-${rank}.jsonl`);
    const lines = [...this.steps].sort((a, b) => a[0] - b[0]).map(([step, ev]) => JSON.stringify({ step, ...ev }));
    const d = this.loopDelay;
    lines.push(JSON.stringify({ gc: this.gcs, hostWork: this.hostWork, loopDelayMs: { p50: d.percentile(50) / 1e6, p99: d.percentile(99) / 1e6, max: d.max / 1e6 } }));
    writeFileSync(`${file}.tmp`, `${lines.join('\n')}\n`);
    renameSync(`${file}.tmp`, file);
    return file;
  }
}

/** The process's timeline, or null when DSMC_TIMELINE_DIR is not set. */
export const stepTimeline: StepTimeline | null = process.env.DSMC_TIMELINE_DIR ? new StepTimeline(process.env.DSMC_TIMELINE_DIR) : null;
