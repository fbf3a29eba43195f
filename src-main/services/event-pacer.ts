// Paces the live events of a run a child posts after every submit (progress, step statistics, phase times): a
// small case on a fast GPU submits hundreds of times a second, and a page that redraws its charts on every event
// stops answering (issue 27: 0.45-8 s). Events are sent at most every `everyMs` (later ones held until the interval
// is over): the newest progress and phases, the steps concatenated. A run's first progress goes at once (the page
// shows the run going at once); field slices (already paced by the run) and the end pass at once, after what is held.
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
  /** When held events were last sent (ms since the epoch). */
  private lastSent = 0;
  /** Runs whose first progress was sent. */
  private readonly started = new Set<number>();

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
      if (e.kind === 'progress' && !this.started.has(runId)) {
        this.started.add(runId);
        this.flush(runId);
        return;
      }
      if (this.timer) return;
      const wait = this.lastSent + this.everyMs - Date.now();
      if (wait <= 0) this.flushAll();
      else this.timer = setTimeout(() => this.flushAll(), wait);
      return;
    }
    this.flush(runId);
    if (e.kind === 'ended') this.started.delete(runId);
    this.emit(e);
  }

  /** Sends what is held for every run (at once when the interval is over, else by the timer). */
  flushAll(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lastSent = Date.now();
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
