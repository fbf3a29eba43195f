// Hang and start-timeout detection: a rank must say hello within startTimeoutMs of starting, and once it sent
// anything, send something (a heartbeat at least) every heartbeatTimeoutMs. Checked on a timer; reports each rank once.
// A check that comes late (this process's event loop was blocked, e.g. building a case's solver tables) judges
// nothing: the ranks' messages of that time are still unread, and the next check comes after they are.

export type LivenessProblem = 'hang' | 'start-timeout';

export interface LivenessOptions {
  /** 0: no hang detection. */
  heartbeatTimeoutMs: number;
  /** 0: no start timeout. */
  startTimeoutMs: number;
  /** Called once per rank with the first problem found. */
  onProblem: (rank: number, problem: LivenessProblem) => void;
}

export class LivenessWatch {
  private readonly startedAt = new Map<number, number>();
  private readonly lastSeen = new Map<number, number>();
  private readonly helloed = new Set<number>();
  private readonly reported = new Set<number>();
  private readonly timer: NodeJS.Timeout | null;
  /** Milliseconds between checks. */
  private readonly period: number;
  /** When the last check ran (Date.now()). */
  private lastCheck = Date.now();

  constructor(private readonly options: LivenessOptions) {
    const limits = [options.heartbeatTimeoutMs, options.startTimeoutMs].filter((t) => t > 0);
    this.period = Math.max(20, Math.min(250, Math.min(...limits, Infinity) / 5));
    this.timer = limits.length > 0 ? setInterval(() => this.check(), this.period) : null;
  }

  /** Starts watching a rank started at `at` (Date.now()). */
  started(rank: number, at: number): void {
    this.startedAt.set(rank, at);
  }

  /** Notes a message from `rank` (`hello`: it has started). */
  seen(rank: number, isHello: boolean): void {
    this.lastSeen.set(rank, Date.now());
    if (isHello) this.helloed.add(rank);
  }

  /** Stops watching a rank (it exited). */
  forget(rank: number): void {
    this.startedAt.delete(rank);
    this.lastSeen.delete(rank);
  }

  /** Stops the timer. */
  dispose(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }

  /** Reports ranks silent for too long (the timer's check; public for tests). */
  check(): void {
    const now = Date.now();
    const late = now - this.lastCheck > 4 * this.period + 1000;
    this.lastCheck = now;
    // this process's loop was blocked: messages that came meanwhile wait unread behind this timer
    if (late) return;
    const { heartbeatTimeoutMs, startTimeoutMs } = this.options;
    for (const [rank, started] of this.startedAt) {
      if (this.reported.has(rank)) continue;
      const seen = this.lastSeen.get(rank);
      let problem: LivenessProblem | null = null;
      if (!this.helloed.has(rank) && startTimeoutMs > 0 && now - started > startTimeoutMs) problem = 'start-timeout';
      if (seen !== undefined && heartbeatTimeoutMs > 0 && now - seen > heartbeatTimeoutMs) problem = 'hang';
      if (problem !== null) {
        this.reported.add(rank);
        this.options.onProblem(rank, problem);
      }
    }
  }
}
