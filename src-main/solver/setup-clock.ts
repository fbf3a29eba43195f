// Where a run's set-up goes before its loop: seconds per part (the solver tables, the pre-launch check, the GPU buffers,
// the pipelines' compilation, the fill and first sort, a benchmark's warm-up), for the run summary's setupParts.
// Pipelines compile whenever a phase first asks for one (pipeline-cache.ts): their seconds go to 'pipelines', not to
// the part that was timed then.

/** A run's set-up as its caller began it: the clock and its start (performance.now()). */
export interface SetupStart {
  clock: SetupClock;
  from: number;
}

export class SetupClock {
  /** Seconds per part so far. */
  readonly parts: Record<string, number> = {};
  /** Seconds compiling pipelines so far (followPipelines points it at the simulation's pipeline cache). */
  private compiled: () => number = () => 0;

  /** Runs fn and adds its seconds to `part` (less the pipelines it compiled). */
  time<T>(part: string, fn: () => T): T {
    const t0 = performance.now(), c0 = this.compiled();
    try {
      return fn();
    } finally {
      this.close(part, t0, c0);
    }
  }

  /** time() for a promise. */
  async timeAsync<T>(part: string, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now(), c0 = this.compiled();
    try {
      return await fn();
    } finally {
      this.close(part, t0, c0);
    }
  }

  /**
   * Books the pipelines `cache` compiled during `part` (the simulation's constructor, which made the cache) to
   * 'pipelines', and every later compile there too.
   */
  followPipelines(part: string, cache: { compileSeconds: number }): void {
    this.add(part, -cache.compileSeconds);
    this.add('pipelines', cache.compileSeconds);
    this.compiled = () => cache.compileSeconds;
  }

  /** Adds seconds to a part. */
  add(part: string, seconds: number): void {
    this.parts[part] = (this.parts[part] ?? 0) + seconds;
  }

  /** Books one timed part: its wall time less the compiles in it, and those to 'pipelines'. */
  private close(part: string, t0: number, c0: number): void {
    const compiled = this.compiled() - c0;
    this.add(part, (performance.now() - t0) / 1000 - compiled);
    if (compiled > 0) this.add('pipelines', compiled);
  }
}
