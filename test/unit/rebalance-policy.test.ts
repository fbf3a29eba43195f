// The rebalancing policy (src-main/cluster/orchestrator/rebalancer.ts, balance-plan.ts): a new split is taken only
// when UN is over the threshold and the particle-steps it saves over the steps left exceed the cost of the particles it
// moves; checks that find nothing worth doing back off; the default plan keeps the first split, weighted
// by the cells' gas volume when bodies cut the box.
import { describe, expect, it } from 'vitest';
import { decompose } from '../../src-main/cluster/decomposition/index.js';
import { RELAYOUT_COST_STEPS, RELAYOUT_COST_STEPS_SOFTWARE, RESPLIT_PAY_MARGIN, Rebalancer, movedWeight, relayoutCost, type CellState } from '../../src-main/cluster/orchestrator/rebalancer.js';
import { DEFAULT_REBALANCE_PERCENT, balancePlan } from '../../src-main/cluster/orchestrator/balance-plan.js';
import { subdomainOf, takeOwnedCells } from '../../src-main/solver/subdomain.js';
import { relayoutRoundBytes, relayoutRoundParticles, relayoutRounds } from '../../src-main/solver/relayout-rounds.js';
import type { Decomposition, Grid } from '../../src-main/cluster/decomposition/types.js';
import { parseCase } from '../../src-main/common/case-schema.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { presetCase } from '../physics/harness.js';

/** Every rank's cell state for global per-cell particle counts. */
function statesOf(d: Decomposition, counts: Float64Array): CellState[] {
  return d.boxes.map((_, r) => {
    const sub = subdomainOf(d, r);
    const local = new Uint32Array(sub.nLocal);
    takeOwnedCells(Uint32Array.from(counts), sub, d.grid, local);
    return { counts: local, sigmaCrMax: new Float32Array(sub.nLocal), remainder: new Float32Array(sub.nLocal) };
  });
}

const grid: Grid = [40, 10, 1];
/** 100 particles per cell, ten times that in the first quarter along x. */
const skewed = () => Float64Array.from({ length: 400 }, (_, g) => (g % 40 < 10 ? 1000 : 100));

describe('rebalancing policy', () => {
  it('re-splits when it pays over the steps left, and says how much moved and the UN it predicts', () => {
    const d = decompose('slab', grid, 4);
    const counts = skewed();
    const r = new Rebalancer(d, 10, [], 10_000);
    expect(r.wants(150)).toBe(true);
    const decision = r.decide(100, 150, statesOf(d, counts))!;
    expect(decision).not.toBeNull();
    expect(decision.unAfter).toBeLessThan(35); // from 277 % (one column of the dense quarter holds 10,000: the slabs' granularity)
    expect(decision.moved).toBe(movedWeight(d, decision.decomposition, counts));
    expect(decision.moved).toBeGreaterThan(0);
    expect(decision.largest).toBe(10_000 * 10);
    expect(r.events).toEqual([{ step: 100, unBefore: 150, unAfter: decision.unAfter, moved: decision.moved }]);
    // what each rank sends each other rank in the relayout (its staging and links are readied from them): cell by cell
    const owner = (box: { lo: number[]; hi: number[] }[], x: number) => box.findIndex((b) => x >= b.lo[0] && x < b.hi[0]);
    const sendsTo = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
    counts.forEach((n, g) => {
      const from = owner(d.boxes, g % 40);
      const to = owner(decision.decomposition.boxes, g % 40);
      if (from !== to) sendsTo[from][to] += n;
    });
    expect(decision.sendsTo).toEqual(sendsTo);
    expect(sendsTo.flat().reduce((a, b) => a + b)).toBe(decision.moved);
    expect(Math.max(...sendsTo.flat())).toBe(decision.maxSend);
  });

  it('keeps the split when too few steps are left to pay for the move, then backs off 1, 2, 4 submits', () => {
    const d = decompose('slab', grid, 4);
    const counts = skewed();
    const r = new Rebalancer(d, 10, [], 101); // one step left
    expect(r.decide(100, 150, statesOf(d, counts))).toBeNull();
    expect(r.decomposition).toBe(d);
    expect([r.wants(150), r.wants(150)]).toEqual([false, true]);
    expect(r.decide(100, 150, statesOf(d, counts))).toBeNull();
    expect([r.wants(150), r.wants(150), r.wants(150)]).toEqual([false, false, true]);
    expect(r.wants(5)).toBe(false); // under the threshold: never
  });

  it('the cost per moved particle decides: a move that saves less than RELAYOUT_COST_STEPS particle-steps per particle moved is not made', () => {
    const d = decompose('slab', grid, 4);
    const counts = skewed();
    const probe = new Rebalancer(d, 10, [], Infinity).decide(0, 150, statesOf(d, counts))!;
    const gain = 10_000 * 10 - Math.max(...probe.decomposition.boxes.map((b) => {
      let w = 0;
      for (let x = b.lo[0]; x < b.hi[0]; x++) w += 10 * (x < 10 ? 1000 : 100);
      return w;
    }));
    const breakEven = (RELAYOUT_COST_STEPS * probe.moved) / gain;
    expect(new Rebalancer(d, 10, [], Math.floor(breakEven) - 1).decide(0, 150, statesOf(d, counts))).toBeNull();
    expect(new Rebalancer(d, 10, [], Math.ceil(breakEven) + 1).decide(0, 150, statesOf(d, counts))).not.toBeNull();
    // a run's margin (RESPLIT_PAY_MARGIN): the split must save twice its cost, so it takes twice the steps left
    const margined = { ...relayoutCost(false), margin: RESPLIT_PAY_MARGIN };
    expect(RESPLIT_PAY_MARGIN).toBe(2);
    expect(new Rebalancer(d, 10, [], Math.ceil(breakEven) + 1).decide(0, 150, statesOf(d, counts), margined)).toBeNull();
    expect(new Rebalancer(d, 10, [], Math.floor(2 * breakEven) - 1).decide(0, 150, statesOf(d, counts), margined)).toBeNull();
    expect(new Rebalancer(d, 10, [], Math.ceil(2 * breakEven) + 1).decide(0, 150, statesOf(d, counts), margined)).not.toBeNull();
  });

  it('a run\'s horizon: a new split is judged over as many steps as the split in force has lasted, at most the steps left', () => {
    const d = decompose('slab', grid, 4);
    const counts = skewed();
    const probe = new Rebalancer(d, 10, [], Infinity).decide(0, 150, statesOf(d, counts))!;
    const largest = (boxes: typeof d.boxes) => Math.max(...boxes.map((b) => {
      let w = 0;
      for (let x = b.lo[0]; x < b.hi[0]; x++) w += 10 * (x < 10 ? 1000 : 100);
      return w;
    }));
    const breakEven = (RELAYOUT_COST_STEPS * probe.moved) / (largest(d.boxes) - largest(probe.decomposition.boxes));
    const byAge = (events: { step: number; unBefore: number }[]) => new Rebalancer(d, 10, events, 1e9, undefined, undefined, true);
    // from the run's start: the split in force has lasted `step` steps
    expect(byAge([]).decide(Math.floor(breakEven) - 1, 150, statesOf(d, counts))).toBeNull();
    expect(byAge([]).decide(Math.ceil(breakEven) + 1, 150, statesOf(d, counts))).not.toBeNull();
    // after a re-split at step 5000: from there
    expect(byAge([{ step: 5000, unBefore: 30 }]).decide(5000 + Math.floor(breakEven) - 1, 150, statesOf(d, counts))).toBeNull();
    expect(byAge([{ step: 5000, unBefore: 30 }]).decide(5000 + Math.ceil(breakEven) + 1, 150, statesOf(d, counts))).not.toBeNull();
    // never beyond the run's end: an old split with too few steps left keeps
    const late = new Rebalancer(d, 10, [], 10 * breakEven, undefined, undefined, true);
    expect(late.decide(Math.floor(9 * breakEven) + 2, 150, statesOf(d, counts))).toBeNull();
    // and the check before the check agrees: no split can pay early in a run by age, where without it one may
    const loads = d.boxes.map((_, r) => statesOf(d, counts)[r].counts.reduce((a, b) => a + b, 0));
    expect(byAge([]).mayPay(10, loads, relayoutCost(false))).toBe(false);
    expect(new Rebalancer(d, 10, [], 1e9).mayPay(10, loads, relayoutCost(false))).toBe(true);
  });
});

describe('the check before the check', () => {
  it('says no split can pay from the ranks\' counts alone exactly where deciding on the cells keeps the split', () => {
    const d = decompose('slab', grid, 4);
    const counts = skewed();
    const loads = d.boxes.map((_, r) => statesOf(d, counts)[r].counts.reduce((a, b) => a + b, 0));
    const cost = relayoutCost(false);
    let sawBoth = [false, false];
    for (const margin of [1, RESPLIT_PAY_MARGIN]) {
      for (const left of [1, 10, 100, 400, 599, 600, 601, 1000, 1199, 1200, 1201, 2000, 10_000]) {
        const r = new Rebalancer(d, 10, [], 100 + left);
        const may = r.mayPay(100, loads, { ...cost, margin });
        const decision = r.decide(100, 150, statesOf(d, counts), { ...cost, margin });
        // a necessary condition: whenever it says no, the decision on the cells keeps the split
        if (!may) expect(decision).toBeNull();
        sawBoth = [sawBoth[0] || !may, sawBoth[1] || (may && decision !== null)];
      }
    }
    expect(sawBoth).toEqual([true, true]);
    // at most RELAYOUT_COST_STEPS particle-steps per moved particle: with that many steps left or fewer nothing can
    // pay (with the margin, twice as many); nor on balanced ranks
    expect(new Rebalancer(d, 10, [], 100 + RELAYOUT_COST_STEPS).mayPay(100, loads, cost)).toBe(false);
    expect(new Rebalancer(d, 10, [], 100 + 2 * RELAYOUT_COST_STEPS).mayPay(100, loads, { ...cost, margin: 2 })).toBe(false);
    expect(new Rebalancer(d, 10, [], 10_000).mayPay(100, [5, 5, 5, 5], cost)).toBe(false);
    // the sampling state priced in raises the bar
    expect(new Rebalancer(d, 10, [], 10_000).mayPay(100, loads, relayoutCost(false, 1e9))).toBe(false);
  });
});

describe('relayout cost', () => {
  it('is cheaper on software adapters, and the sampling state priced in once sampling has begun can make a split not pay', () => {
    const d = decompose('slab', grid, 4);
    const counts = skewed();
    const probe = new Rebalancer(d, 10, [], Infinity).decide(0, 150, statesOf(d, counts))!;
    // a run just long enough for the GPU's cost: the software adapter's is RELAYOUT_COST_STEPS times smaller
    const steps = Math.ceil((RELAYOUT_COST_STEPS * probe.moved) / 57_500) + 2;
    expect(relayoutCost(false).movedParticleSteps).toBe(RELAYOUT_COST_STEPS);
    expect(relayoutCost(true).movedParticleSteps).toBe(RELAYOUT_COST_STEPS_SOFTWARE);
    expect(new Rebalancer(d, 10, [], steps).decide(0, 150, statesOf(d, counts), relayoutCost(false))).not.toBeNull();
    expect(new Rebalancer(d, 10, [], 3).decide(0, 150, statesOf(d, counts), relayoutCost(false))).toBeNull();
    expect(new Rebalancer(d, 10, [], 3).decide(0, 150, statesOf(d, counts), relayoutCost(true))).not.toBeNull();
    // the same split with a sampling state of ten times the particles to move besides: no longer worth it
    expect(new Rebalancer(d, 10, [], steps).decide(0, 150, statesOf(d, counts), relayoutCost(false, 10 * probe.moved))).toBeNull();
  });
});

describe('relayout rounds', () => {
  it('bound one round\'s records of every destination to the round bytes, the same count on every rank', () => {
    const per = relayoutRoundParticles(4, 9);
    expect(4 * 9 * 4 * per).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect(relayoutRounds(per, 4, 9)).toBe(1);
    expect(relayoutRounds(per + 1, 4, 9)).toBe(2);
    expect(relayoutRounds(30e6, 4, 9)).toBe(Math.ceil(30e6 / per));
    // ranks whose adapters bind 2 GiB take rounds of 1 GiB; lavapipe's 128 MiB keeps the default 64 MiB
    expect(relayoutRoundBytes(2 ** 31 - 4)).toBe(2 ** 30 - 16);
    expect(relayoutRoundBytes(128 * 1024 * 1024)).toBe(64 * 1024 * 1024);
    expect(relayoutRoundBytes(0)).toBe(64 * 1024 * 1024);
  });
});

describe('balance plan', () => {
  it('rebalances by default at UN > 20 % with the pay margin and says how to change it, weights the first split by gas volume where bodies cut the box', () => {
    const wedge = presetCase('hypersonic-wedge', ['grid.cells=[80,40,1]', 'grid.cellSize=[2.5e-3,2.5e-3,2.5e-3]', 'particles.perCell=4']);
    const p = balancePlan(wedge, buildTables(wedge), undefined);
    expect(DEFAULT_REBALANCE_PERCENT).toBe(20);
    expect(p.rebalancePercent).toBe(DEFAULT_REBALANCE_PERCENT);
    expect(p.initialWeights).not.toBeNull();
    expect(Math.min(...p.initialWeights!)).toBeLessThan(1);
    expect(p.reason).toMatch(/gas volume.*rebalanced when UN > 20 % and a new split saves 2 times what its moves cost within as many steps as the split in force has lasted \(the default; .*--rebalance off keeps the first split\)/);
    // ranks pinned two or more to a GPU keep the first split by default, and say so; the user may still ask
    const shared = balancePlan(wedge, buildTables(wedge), undefined, undefined, false, true);
    expect(shared.rebalancePercent).toBeNull();
    expect(shared.reason).toMatch(/no rebalancing \(the default where ranks share a GPU: .*--rebalance P re-splits/);
    expect(balancePlan(wedge, buildTables(wedge), 15, undefined, false, true).rebalancePercent).toBe(15);
    const off = balancePlan(wedge, buildTables(wedge), null);
    expect(off.rebalancePercent).toBeNull();
    expect(off.reason).toMatch(/--rebalance off/);
    const box = parseCase(presetCase('collide-box', []));
    const q = balancePlan(box, buildTables(box), 25);
    expect(q.initialWeights).toBeNull();
    expect(q.rebalancePercent).toBe(25);
    expect(q.reason).toMatch(/rebalanced when UN > 25 % .*UN of the ranks' measured GPU time on GPUs of their own, of their particles on software adapters, ranks that share a GPU/);
    // the default decomposition: rcb where bodies cut the box, slabs for a box of gas; the user's choice otherwise
    expect(p.method).toBe('rcb');
    expect(p.reason).toMatch(/^rcb \(the default where bodies cut the box/);
    expect(q.method).toBe('slab');
    expect(q.reason).toMatch(/^slab \(the default for a box without bodies/);
    const mine = balancePlan(wedge, buildTables(wedge), undefined, 'block');
    expect(mine.method).toBe('block');
    expect(mine.reason).toMatch(/^block \(--decomposition block\)/);
    expect(balancePlan(wedge, buildTables(wedge), undefined, 'slab', true).reason).toMatch(/^slab \(the checkpoint's split\)/);
  });
});
