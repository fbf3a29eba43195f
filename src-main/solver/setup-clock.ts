// Where a run's set-up goes before its loop: seconds per part (the solver tables, the pre-launch check, the GPU buffers,
// the pipelines' compilation, the fill and first sort, a benchmark's warm-up), for the run summary's setupParts.
// Pipelines compile whenever a phase first asks for one (pipeline-cache.ts): their seconds go to 'pipelines', not to
// the part that was timed then.

export class SetupClock {
  /** Seconds per part so far. */
  readonly parts: Record<string, number> = {};
  /** Seconds compiling pipelines so far (set once the simulation and its pipeline cache exist). */
  compiled: () => number = () => 0;

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

  /** Moves `seconds` of `part` to 'pipelines' (the compiles inside a constructor, before `compiled` could see them). */
  moveToPipelines(part: string, seconds: number): void {
    this.add(part, -seconds);
    this.add('pipelines', seconds);
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
