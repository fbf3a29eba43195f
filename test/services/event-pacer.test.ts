// The pacing of a run's live events (src-main/services/event-pacer.ts): per-submit progress, steps and phases are
// held and sent at most every interval (a run's first progress at once) (newest progress and phases, steps concatenated, per run), while field
// slices and the end pass at once after what is held.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent, RunProgress } from '../../src-main/common/contract/types.js';
import { EventPacer } from '../../src-main/services/event-pacer.js';

/** A progress event of run `runId` at `step`. */
function progress(runId: number, step: number): RunEvent {
  const p: RunProgress = { runId, status: 'running', step, steps: 1000, particles: 10, elapsedSeconds: step / 100, particleStepsPerSecond: 1e6, etaSeconds: 1 };
  return { kind: 'progress', progress: p };
}

/** A steps event of run `runId` for the given steps. */
function steps(runId: number, ...at: number[]): RunEvent {
  return { kind: 'steps', runId, steps: at.map((step) => ({ step, particles: 10, injected: 0, collisions: 1, candidates: 2 })) };
}

describe('EventPacer', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('sends a hundred submits\' events as one of each kind per interval, per run', () => {
    const out: RunEvent[] = [];
    const pacer = new EventPacer((e) => out.push(e), 250);
    // a run's first progress goes at once (the page shows the run going), later events wait for the interval
    pacer.push(progress(1, 0));
    pacer.push(progress(2, 0));
    // after a quiet interval the next event goes at once too (leading edge), then the interval starts
    pacer.push(steps(1, 0));
    expect(out).toEqual([progress(1, 0), progress(2, 0), steps(1, 0)]);
    out.length = 0;
    for (let k = 1; k <= 100; k++) {
      pacer.push(steps(1, 2 * k - 1, 2 * k));
      pacer.push({ kind: 'phases', runId: 1, phases: [{ phase: 'move', seconds: k }] });
      pacer.push(progress(1, 2 * k));
      pacer.push(progress(2, k));
    }
    expect(out).toEqual([]);
    vi.advanceTimersByTime(250);
    expect(out.map((e) => e.kind)).toEqual(['steps', 'phases', 'progress', 'progress']);
    const s = out[0] as Extract<RunEvent, { kind: 'steps' }>;
    expect(s.steps.map((x) => x.step)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(out[1]).toEqual({ kind: 'phases', runId: 1, phases: [{ phase: 'move', seconds: 100 }] });
    expect((out[2] as Extract<RunEvent, { kind: 'progress' }>).progress).toMatchObject({ runId: 1, step: 200 });
    expect((out[3] as Extract<RunEvent, { kind: 'progress' }>).progress).toMatchObject({ runId: 2, step: 100 });
    vi.advanceTimersByTime(1000);
    expect(out).toHaveLength(4);
  });

  it('passes field slices and the end at once, after the run\'s held events', () => {
    const out: RunEvent[] = [];
    const pacer = new EventPacer((e) => out.push(e), 250);
    pacer.push(progress(1, 0));
    pacer.push(progress(2, 0));
    out.length = 0;
    pacer.push(steps(1, 1));
    pacer.push(progress(1, 1));
    pacer.push(progress(2, 1));
    pacer.push({ kind: 'ended', runId: 1, status: 'cancelled', reason: 'stopped by the user at step 1 of 1000' });
    // run 1's held events, then its end; run 2's stay held until the timer
    expect(out.map((e) => e.kind)).toEqual(['steps', 'progress', 'ended']);
    vi.advanceTimersByTime(250);
    expect(out.map((e) => e.kind)).toEqual(['steps', 'progress', 'ended', 'progress']);
  });
});
