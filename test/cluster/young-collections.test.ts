// The ranks' minor garbage collections taken together (cluster/orchestrator/young-collections.ts): when the fill a
// rank's young generation would reach by then passes the threshold, every rank is asked to collect after the same
// later submit, once per fill.
import { describe, expect, it } from 'vitest';
import { COLLECT_AFTER_SUBMITS, COLLECT_AT_FILL, YoungCollections, collectAtFillFromEnvironment } from '../../src-main/cluster/orchestrator/young-collections.js';
import { collectYoung, youngFill } from '../../src-main/solver/young-collection.js';

describe('young collections planned by the orchestrator', () => {
  it('ask every rank to collect after a later submit once the fullest rank would pass the threshold by then', () => {
    const plan = new YoungCollections(0.9);
    // submit 0: no growth known yet, 0.5 projected
    plan.note(0, 0, 0.5);
    plan.note(0, 1, 0.4);
    expect(plan.decide(0)).toBeNull();
    // submit 1: rank 0 grows 0.05 a submit: 0.55 + 3 x 0.05 = 0.7; rank 1 0.1: 0.5 + 0.3 = 0.8
    plan.note(1, 0, 0.55);
    plan.note(1, 1, 0.5);
    expect(plan.decide(1)).toBeNull();
    // submit 2: rank 1 would reach 0.62 + 3 x 0.12 = 0.98 one submit after a collection planned now: one rank is enough
    plan.note(2, 0, 0.6);
    plan.note(2, 1, 0.62);
    expect(plan.decide(2)).toBe(2 + COLLECT_AFTER_SUBMITS);
    // the reports made before that collection ask for none
    for (let k = 3; k <= 2 + COLLECT_AFTER_SUBMITS; k++) {
      plan.note(k, 0, 0.95);
      plan.note(k, 1, 0.95);
      expect(plan.decide(k)).toBeNull();
    }
    // after it the fill fell (no growth counted), then it grows again
    const next = 3 + COLLECT_AFTER_SUBMITS;
    plan.note(next, 0, 0.05);
    plan.note(next, 1, 0.05);
    expect(plan.decide(next)).toBeNull();
    plan.note(next + 1, 0, 0.3);
    plan.note(next + 1, 1, 0.1);
    expect(plan.decide(next + 1)).toBe(next + 1 + COLLECT_AFTER_SUBMITS);
  });

  it('ask for none while the young generations fill slowly', () => {
    const plan = new YoungCollections(COLLECT_AT_FILL);
    for (let k = 0; k < 20; k++) {
      plan.note(k, 0, 0.1 + 0.02 * k);
      expect(plan.decide(k)).toBeNull();
    }
  });

  it('ask for nothing where ranks do not report their fill', () => {
    const plan = new YoungCollections(0.01);
    plan.note(0, 0, undefined);
    expect(plan.decide(0)).toBeNull();
  });

  it('read the threshold from DSMC_COLLECT_AT_FILL, with a clear error for a bad value', () => {
    expect(collectAtFillFromEnvironment({})).toBe(COLLECT_AT_FILL);
    expect(collectAtFillFromEnvironment({ DSMC_COLLECT_AT_FILL: '0.25' })).toBe(0.25);
    for (const bad of ['0', '-1', '1.5', 'half']) {
      expect(() => collectAtFillFromEnvironment({ DSMC_COLLECT_AT_FILL: bad })).toThrow(/DSMC_COLLECT_AT_FILL is .*above 0 and at most 1/);
    }
  });
});

describe('a rank\'s young generation', () => {
  it('reports its fill as a fraction that allocation raises', () => {
    const before = youngFill();
    const kept: number[][] = [];
    for (let k = 0; k < 2000; k++) kept.push([k, k + 1]);
    const after = youngFill();
    expect(before).toBeGreaterThanOrEqual(0);
    expect(after).toBeLessThanOrEqual(1);
    // a scavenge may come between the readings; otherwise the fill grew
    expect(after > before || after < 0.05).toBe(true);
    expect(kept).toHaveLength(2000);
  });

  it('collects only in a process started with --expose-gc', () => {
    const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
    const seconds = collectYoung();
    if (exposed) expect(seconds).toBeGreaterThanOrEqual(0);
    else expect(seconds).toBeNull();
  });
});
