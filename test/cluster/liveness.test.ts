// The supervisor's hang detection: silence past the heartbeat timeout is a hang, but a check that comes late because
// the orchestrator's own event loop was blocked (e.g. building a case's solver tables) judges nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LivenessWatch, type LivenessProblem } from '../../src-main/cluster/supervisor/liveness.js';

describe('LivenessWatch', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  /** A watch of rank 0 with a 1000 ms heartbeat timeout (checks every 200 ms), seen now. */
  function watched(): { watch: LivenessWatch; problems: [number, LivenessProblem][] } {
    const problems: [number, LivenessProblem][] = [];
    const watch = new LivenessWatch({ heartbeatTimeoutMs: 1000, startTimeoutMs: 0, onProblem: (r, p) => problems.push([r, p]) });
    watch.started(0, Date.now());
    watch.seen(0, true);
    return { watch, problems };
  }

  it('reports a rank silent past the timeout while its checks run on time', () => {
    const { watch, problems } = watched();
    vi.advanceTimersByTime(900);
    expect(problems).toEqual([]);
    vi.advanceTimersByTime(400);
    expect(problems).toEqual([[0, 'hang']]);
    watch.dispose();
  });

  it('judges nothing on a late check: the messages of a blocked loop are still unread', () => {
    const { watch, problems } = watched();
    vi.advanceTimersByTime(200);
    // the loop blocked for 5 s: the clock moves, no timer fires
    vi.setSystemTime(Date.now() + 5000);
    vi.advanceTimersByTime(200); // the late check
    expect(problems).toEqual([]);
    watch.seen(0, false); // the heartbeat that waited behind it
    vi.advanceTimersByTime(800);
    expect(problems).toEqual([]);
    // then silent again, checks on time: a hang
    vi.advanceTimersByTime(400);
    expect(problems).toEqual([[0, 'hang']]);
    watch.dispose();
  });
});
