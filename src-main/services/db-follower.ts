// Follows a run through the run database (multi-rank launches): polls its recorded steps and status and
// turns them into the same live events a one-rank child posts.
import type { RunEvent, RunProgress } from '../common/contract/types.js';
import type { RunStore } from '../store/run-store.js';
import { progressFromRecords } from './run-progress.js';

/** Poll interval. */
const POLL_MS = 500;

export class DbFollower {
  private lastStep = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly totalSteps: number;

  constructor(private readonly store: RunStore, private readonly runId: number, private readonly emit: (e: RunEvent) => void) {
    this.totalSteps = Number((store.getCase(runId).json as { run?: { steps?: number } }).run?.steps ?? 0);
  }

  /** The progress as the database has it now. */
  progress(): RunProgress {
    return progressFromRecords(this.store.getRun(this.runId), this.store.getSteps(this.runId), this.totalSteps);
  }

  /** Starts polling until the run leaves the running state. */
  start(): void {
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  /** One poll: new steps, progress, and the end. */
  private poll(): void {
    const run = this.store.getRun(this.runId);
    const steps = this.store.getSteps(this.runId);
    const fresh = steps.filter((s) => s.step > this.lastStep);
    if (fresh.length > 0) {
      this.lastStep = fresh[fresh.length - 1].step;
      this.emit({ kind: 'steps', runId: this.runId, steps: fresh });
    }
    this.emit({ kind: 'progress', progress: progressFromRecords(run, steps, this.totalSteps) });
    if (run.status !== 'running' && run.status !== 'queued') {
      if (this.timer) clearInterval(this.timer);
      this.emit({ kind: 'ended', runId: this.runId, status: run.status, reason: run.reason });
    }
  }
}
