// The choice between the sampling pass and the collide kernel's walk (sample-kernel-choice.ts): fixed settings stay,
// 'auto' alternates the two over its trial submits and keeps the one that costs less per sampled step.
import { afterEach, describe, expect, it } from 'vitest';
import type { PhaseTotals } from '../../src-main/solver/gpu/phase-totals.js';
import { SampleKernelChoice, sampleKernelSetting } from '../../src-main/solver/sample-kernel-choice.js';

/** Phase totals with the given seconds and calls per phase. */
function totals(entries: Record<string, [number, number]>): Map<string, PhaseTotals> {
  return new Map(Object.entries(entries).map(([k, [s, n]]) => [k, { calls: n, totalSeconds: s, minSeconds: 0, maxSeconds: 0 }]));
}

/**
 * Runs the four trial submits: the pass costs collide + sample per step, the walk collide+sample (and, on a rank, the
 * halo cells' sampling pass: walkSample).
 */
function trial(choice: SampleKernelChoice, collide: number, sample: number, fused: number, walkSample = 0): void {
  let t = totals({});
  const steps = 10;
  for (let k = 0; k < 4; k++) {
    const kernel = choice.next();
    expect(kernel).toBe(k % 2 === 0 ? 'pass' : 'walk');
    const next = new Map([...t].map(([a, v]) => [a, { ...v }]));
    const add = (name: string, sec: number) => {
      const v = next.get(name) ?? { calls: 0, totalSeconds: 0, minSeconds: 0, maxSeconds: 0 };
      next.set(name, { ...v, calls: v.calls + steps, totalSeconds: v.totalSeconds + steps * sec });
    };
    add('move', 3e-3);
    if (kernel === 'pass') {
      add('collide', collide);
      add('sample', sample);
    } else {
      add('collide+sample', fused);
      if (walkSample > 0) add('sample', walkSample);
    }
    choice.record(kernel, t, next);
    t = next;
  }
}

describe('sampling kernel choice', () => {
  const saved = process.env.DSMC_SAMPLE_KERNEL;
  afterEach(() => { if (saved === undefined) delete process.env.DSMC_SAMPLE_KERNEL; else process.env.DSMC_SAMPLE_KERNEL = saved; });

  it('keeps the walk where it adds less than the pass costs, and the pass otherwise', () => {
    const busy = new SampleKernelChoice('auto');
    trial(busy, 1.4e-3, 1.0e-3, 2.27e-3); // the scaling box on an H100: the walk adds 0.87 ms
    expect(busy.next()).toBe('walk');
    expect(busy.measuring).toBe(false);
    const r = busy.report();
    expect(r).toMatchObject({ kernel: 'walk', how: 'measured' });
    expect(r.passSeconds).toBeCloseTo(1.0e-3, 12);
    expect(r.walkExtraSeconds).toBeCloseTo(0.87e-3, 12);
    const rare = new SampleKernelChoice('auto');
    trial(rare, 0.11e-3, 0.8e-3, 1.18e-3); // the 102M cavity: the walk adds 1.07 ms
    expect(rare.next()).toBe('pass');
    expect(rare.report()).toMatchObject({ kernel: 'pass', how: 'measured' });
  });

  it('on a rank, counts the halo cells\' sampling pass that the walk still runs against it', () => {
    // the walk adds 0.25 ms to the collide kernel (interior cells), the halo cells' pass 0.03 ms: 0.28 against 0.3
    const close = new SampleKernelChoice('auto');
    trial(close, 0.44e-3, 0.3e-3, 0.69e-3, 0.03e-3);
    expect(close.report().walkExtraSeconds).toBeCloseTo(0.28e-3, 12);
    expect(close.next()).toBe('walk');
    // with a halo pass of 0.06 ms the walk costs 0.31 ms: the pass wins
    const halo = new SampleKernelChoice('auto');
    trial(halo, 0.44e-3, 0.3e-3, 0.69e-3, 0.06e-3);
    expect(halo.next()).toBe('pass');
  });

  it('reports its trials when the run ends before them, and falls back to the pass when nothing was timed', () => {
    const c = new SampleKernelChoice('auto');
    expect(c.report()).toEqual({ kernel: 'pass', how: 'trial' });
    const untimed = new SampleKernelChoice('auto');
    for (let k = 0; k < 4; k++) untimed.record(untimed.next(), totals({}), totals({}));
    expect(untimed.next()).toBe('pass');
  });

  it('keeps a fixed kernel, and the setting follows the run and DSMC_SAMPLE_KERNEL', () => {
    const w = new SampleKernelChoice('walk');
    w.record('walk', totals({}), totals({ 'collide+sample': [1, 1] }));
    expect(w.next()).toBe('walk');
    expect(w.report()).toEqual({ kernel: 'walk', how: 'fixed' });
    delete process.env.DSMC_SAMPLE_KERNEL;
    // (sampling, software adapter, reactions): one rank or a rank of many alike
    expect(sampleKernelSetting(true, false)).toBe('auto');
    expect(sampleKernelSetting(true, true)).toBe('pass');
    expect(sampleKernelSetting(true, false, true)).toBe('pass');
    expect(sampleKernelSetting(false, false)).toBe('pass');
    process.env.DSMC_SAMPLE_KERNEL = 'walk';
    expect(sampleKernelSetting(true, true)).toBe('walk');
    expect(sampleKernelSetting(true, false, true)).toBe('pass');
    process.env.DSMC_SAMPLE_KERNEL = 'fast';
    expect(() => sampleKernelSetting(true, false)).toThrow(/DSMC_SAMPLE_KERNEL=fast: use pass/);
  });
});
