// The ranks' major garbage collections taken together (cluster/orchestrator/old-collections.ts): when the growth of a
// rank's old generation since its last major collection would pass the budget by then, every rank is asked to collect
// after the same later submit; a collection V8 took on its own lowers the budget below the growth it came after.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OLD_BUDGET_BYTES, LEARNED_SHARE, MIN_OLD_BUDGET_BYTES, OldCollections, oldCollectionsFromEnvironment } from '../../src-main/cluster/orchestrator/old-collections.js';
import { COLLECT_AFTER_SUBMITS } from '../../src-main/cluster/orchestrator/young-collections.js';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { collectOld, collectYoung, oldGenerationBytes } from '../../src-main/solver/young-collection.js';

const MB = 2 ** 20;

describe('old-generation collections planned by the orchestrator', () => {
  it('ask every rank to collect after a later submit once the fastest-growing rank would pass the budget by then', () => {
    const plan = new OldCollections(10 * MB);
    // submit 0: the bases
    plan.note(0, 0, 20 * MB);
    plan.note(0, 1, 30 * MB);
    expect(plan.decide(0)).toBeNull();
    // submit 1: rank 0 grows 1 MB a submit: 1 + 3 x 1 = 4 MB projected; rank 1 2 MB: 2 + 3 x 2 = 8 MB
    plan.note(1, 0, 21 * MB);
    plan.note(1, 1, 32 * MB);
    expect(plan.decide(1)).toBeNull();
    // submit 2: rank 1 would have grown 4 + 3 x 2 = 10 MB one submit after a collection planned now: one rank is enough
    plan.note(2, 0, 22 * MB);
    plan.note(2, 1, 34 * MB);
    expect(plan.decide(2)).toBe(2 + COLLECT_AFTER_SUBMITS);
    // the reports made before that collection ask for none
    const after = 2 + COLLECT_AFTER_SUBMITS;
    for (let k = 3; k < after; k++) {
      plan.note(k, 0, (20 + k) * MB);
      plan.note(k, 1, (30 + 2 * k) * MB);
      expect(plan.decide(k)).toBeNull();
    }
    // the collection is taken before the report of its submit: a fall there is the planned one (new bases, the budget kept)
    plan.note(after, 0, 15 * MB);
    plan.note(after, 1, 16 * MB);
    expect(plan.decide(after)).toBeNull();
    expect(plan.budget).toBe(10 * MB);
    plan.note(after + 1, 0, 16 * MB);
    plan.note(after + 1, 1, 17 * MB);
    expect(plan.decide(after + 1)).toBeNull();
  });

  it('count a fall where none was planned as V8\'s own collection and keep the budget below the growth before it', () => {
    expect(new OldCollections().budget).toBe(DEFAULT_OLD_BUDGET_BYTES);
    const plan = new OldCollections(100 * MB);
    plan.note(0, 0, 10 * MB);
    expect(plan.decide(0)).toBeNull();
    plan.note(1, 0, 13 * MB);
    expect(plan.decide(1)).toBeNull();
    plan.note(2, 0, 16 * MB);
    expect(plan.decide(2)).toBeNull();
    // V8 collected after 6 MB of growth, before the budget's 100 MB
    plan.note(3, 0, 9 * MB);
    expect(plan.budget).toBeCloseTo(LEARNED_SHARE * 6 * MB, 0);
    expect(plan.decide(3)).toBeNull();
    // from the new base (9 MB) a growth of 1 MB a submit: 1 + 3 x 1 = 4 MB is below 4.8 MB, 2 + 3 x 1 = 5 MB is not
    plan.note(4, 0, 10 * MB);
    expect(plan.decide(4)).toBeNull();
    plan.note(5, 0, 11 * MB);
    expect(plan.decide(5)).toBe(5 + COLLECT_AFTER_SUBMITS);
    // a fall after a tiny growth never lowers the budget below the floor
    const small = new OldCollections();
    small.note(0, 0, 10 * MB);
    small.note(1, 0, 10.1 * MB);
    small.note(2, 0, 9 * MB);
    expect(small.budget).toBe(MIN_OLD_BUDGET_BYTES);
    // nor raises a budget set below the floor
    const tiny = new OldCollections(1);
    tiny.note(0, 0, 10 * MB);
    tiny.note(1, 0, 9 * MB);
    expect(tiny.budget).toBe(1);
  });

  it('ask for none while the old generations grow slowly, or where ranks do not report them', () => {
    const plan = new OldCollections();
    for (let k = 0; k < 20; k++) {
      plan.note(k, 0, 10 * MB + 0.05 * MB * k);
      expect(plan.decide(k)).toBeNull();
    }
    const silent = new OldCollections(1);
    silent.note(0, 0, undefined);
    silent.note(1, 0, undefined);
    expect(silent.decide(1)).toBeNull();
  });

  it('read DSMC_OLD_COLLECTIONS and DSMC_OLD_BUDGET_MB, with a clear error for a bad value', () => {
    expect(oldCollectionsFromEnvironment({})?.budget).toBe(DEFAULT_OLD_BUDGET_BYTES);
    expect(oldCollectionsFromEnvironment({ DSMC_OLD_COLLECTIONS: '1' })?.budget).toBe(DEFAULT_OLD_BUDGET_BYTES);
    expect(oldCollectionsFromEnvironment({ DSMC_OLD_COLLECTIONS: '0' })).toBeNull();
    expect(oldCollectionsFromEnvironment({ DSMC_OLD_BUDGET_MB: '2.5' })?.budget).toBe(2.5 * MB);
    expect(() => oldCollectionsFromEnvironment({ DSMC_OLD_COLLECTIONS: 'off' })).toThrow(/DSMC_OLD_COLLECTIONS is "off": give 0 .* or 1/);
    for (const bad of ['0', '-1', 'lots']) {
      expect(() => oldCollectionsFromEnvironment({ DSMC_OLD_BUDGET_MB: bad })).toThrow(/DSMC_OLD_BUDGET_MB is .*megabytes, above 0/);
    }
  });
});

describe('a rank\'s collections', () => {
  it('are a mark-compact (collectOld) and a scavenge (collectYoung), and the old generation\'s bytes fall with garbage collected', async () => {
    // the collector as --expose-gc gives a rank process, exposed here for the test (V8 11.3 takes any argument for a scavenge)
    const had = (globalThis as { gc?: unknown }).gc;
    setFlagsFromString('--expose-gc');
    (globalThis as { gc?: unknown }).gc = runInNewContext('gc');
    const kinds: number[] = [];
    const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) kinds.push((e.detail as { kind: number }).kind); });
    observer.observe({ entryTypes: ['gc'] });
    try {
      expect(collectOld()).toBeGreaterThanOrEqual(0);
      // what survives a full collection sits in the old generation; once dropped, the next one frees it
      let kept: number[][] = [];
      for (let k = 0; k < 200_000; k++) kept.push([k]);
      collectOld();
      const withKept = oldGenerationBytes();
      expect(kept).toHaveLength(200_000);
      kept = [];
      collectOld();
      expect(oldGenerationBytes()).toBeLessThan(withKept - 4 * MB);
      collectOld();
      expect(collectYoung()).toBeGreaterThanOrEqual(0);
      // the observer hears of collections a little later: each collectOld was a mark-compact, the last call a scavenge
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(kinds.filter((k) => k === constants.NODE_PERFORMANCE_GC_MAJOR).length).toBeGreaterThanOrEqual(4);
      expect(kinds.slice(-2)).toEqual([constants.NODE_PERFORMANCE_GC_MAJOR, constants.NODE_PERFORMANCE_GC_MINOR]);
    } finally {
      observer.disconnect();
      (globalThis as { gc?: unknown }).gc = had;
    }
  });
});
