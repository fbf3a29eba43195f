// Paces the live events of a run a child posts after every submit (progress, step statistics, phase times): a
// small case on a fast GPU submits hundreds of times a second, and a page that redraws its charts on every event
// stops answering (issue 27: 0.45-8 s). Events are held and sent at most every `everyMs`: the newest progress and
// phases, the steps concatenated. Field slices (already paced by the run) and the end pass at once, after what is held.
import type { RunEvent, RunProgress, StepRecord } from '../common/contract/types.js';

/** Default time between two sends of a run's held events (ms): four updates a second. */
export const LIVE_EVENT_MS = 250;

/** The held events of one run. */
interface Held {
  progress: RunProgress | null;
  steps: StepRecord[];
  phases: { phase: string; seconds: number }[] | null;
}

export class EventPacer {
  private readonly held = new Map<number, Held>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly emit: (e: RunEvent) => void, private readonly everyMs = LIVE_EVENT_MS) {}

  /** Takes one event: progress, steps and phases are held until the next send, others flush the run's held ones first. */
  push(e: RunEvent): void {
    const runId = e.kind === 'progress' ? e.progress.runId : e.runId;
    if (e.kind === 'progress' || e.kind === 'steps' || e.kind === 'phases') {
      const h = this.held.get(runId) ?? { progress: null, steps: [], phases: null };
      if (e.kind === 'progress') h.progress = e.progress;
      else if (e.kind === 'steps') h.steps.push(...e.steps);
      else h.phases = e.phases;
      this.held.set(runId, h);
      this.timer ??= setTimeout(() => this.flushAll(), this.everyMs);
      return;
    }
    this.flush(runId);
    this.emit(e);
  }

  /** Sends what is held for every run (called by the timer). */
  flushAll(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const runId of [...this.held.keys()]) this.flush(runId);
  }

  /** Sends the held events of one run: steps, then phases, then progress (the order a child posts them). */
  private flush(runId: number): void {
    const h = this.held.get(runId);
    if (!h) return;
    this.held.delete(runId);
    if (h.steps.length > 0) this.emit({ kind: 'steps', runId, steps: h.steps });
    if (h.phases) this.emit({ kind: 'phases', runId, phases: h.phases });
    if (h.progress) this.emit({ kind: 'progress', progress: h.progress });
  }
}
