// Phase totals and their arithmetic, apart from the GPU: a phase's calls and seconds, a call counted whole when a phase
// is timed in parts, the estimate of a phase timed on some calls only, and the GPU seconds between two snapshots.
import { isGpuWorkPhase } from '../../common/reports/rank-time.js';

/** Accumulated time of one phase. */
export interface PhaseTotals {
  calls: number;
  totalSeconds: number;
  minSeconds: number;
  maxSeconds: number;
  /** When only some calls were timed (TimestampRecorder's `every`): totalSeconds is then an estimate (estimatedTotals). */
  sampled?: SampledCalls;
}

/** A phase timed on some calls only: how many were timed, their seconds, and the seconds an untimed call is taken to last. */
export interface SampledCalls {
  timedCalls: number;
  timedSeconds: number;
  untimedMean: number;
}

/** The timed calls of a phase and their seconds: all of them where every call was timed. */
export function timedPart(t: PhaseTotals): { calls: number; seconds: number } {
  return t.sampled ? { calls: t.sampled.timedCalls, seconds: t.sampled.timedSeconds } : { calls: t.calls, seconds: t.totalSeconds };
}

/** Adds one measured duration to a phase's totals (also used for host-side phases). */
export function addTime(map: Map<string, PhaseTotals>, name: string, seconds: number): void {
  const t = map.get(name) ?? { calls: 0, totalSeconds: 0, minSeconds: Infinity, maxSeconds: 0 };
  t.calls += 1;
  t.totalSeconds += seconds;
  t.minSeconds = Math.min(t.minSeconds, seconds);
  t.maxSeconds = Math.max(t.maxSeconds, seconds);
  map.set(name, t);
}

/** Calls being timed until a submit ends: a pass that continues a phase adds to its open call. */
export class OpenCalls {
  private readonly open = new Map<string, number>();

  /** counted: told of every call as it is counted (its phase and seconds). */
  constructor(private readonly counted?: (name: string, seconds: number) => void) {}

  /** Adds one pass's time: a new call, or more of the open call of that phase. */
  add(map: Map<string, PhaseTotals>, name: string, seconds: number, continues: boolean): void {
    const before = this.open.get(name);
    if (continues && before !== undefined) {
      this.open.set(name, before + seconds);
      return;
    }
    if (before !== undefined) this.count(map, name, before);
    this.open.set(name, seconds);
  }

  /** Adds one whole call to its phase's totals. */
  private count(map: Map<string, PhaseTotals>, name: string, seconds: number): void {
    addTime(map, name, seconds);
    this.counted?.(name, seconds);
  }

  /** Counts every open call (at the end of a submit: no phase continues across submits). */
  close(map: Map<string, PhaseTotals>): void {
    for (const [name, seconds] of this.open) this.count(map, name, seconds);
    this.open.clear();
  }
}

/**
 * A sampled phase's totals (`timed`: its timed calls; `firstSeconds`: its first call's): the first call as measured,
 * every other call at the mean of the other timed calls (the first's time when it is the only one). A run's first step
 * is unlike the rest (on a rank a whole move and sort, 8.8 ms of sort against 3.0 on the box of 2 x H200): counted like
 * the others, it read a rank's sort 4 % high when one call in 8 was timed.
 */
export function estimatedTotals(timed: PhaseTotals, firstSeconds: number, untimedCalls: number): PhaseTotals {
  const calls = timed.calls + untimedCalls;
  const untimedMean = timed.calls > 1 ? (timed.totalSeconds - firstSeconds) / (timed.calls - 1) : firstSeconds;
  return {
    ...timed, calls, totalSeconds: firstSeconds + (calls - 1) * untimedMean, sampled: { timedCalls: timed.calls, timedSeconds: timed.totalSeconds, untimedMean },
  };
}

/**
 * Seconds the GPU worked in the passes recorded between two snapshots of the totals (no host phases): the difference of
 * the totals where every call is timed; where only some are, the timed calls' seconds in between plus the untimed calls
 * in between at the seconds an untimed call is taken to last (never negative: an estimated total moves with the timed calls, for earlier calls too).
 */
export function gpuSecondsBetween(before: ReadonlyMap<string, PhaseTotals>, now: ReadonlyMap<string, PhaseTotals>): number {
  let sum = 0;
  for (const [name, t] of now) {
    if (!isGpuWorkPhase(name)) continue;
    const b = before.get(name);
    if (!t.sampled) {
      sum += t.totalSeconds - (b?.totalSeconds ?? 0);
      continue;
    }
    const now = timedPart(t);
    const was = b ? timedPart(b) : { calls: 0, seconds: 0 };
    const untimed = t.calls - now.calls - (b ? b.calls - was.calls : 0);
    sum += now.seconds - was.seconds + untimed * t.sampled.untimedMean;
  }
  return sum;
}
