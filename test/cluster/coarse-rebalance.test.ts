// Rebalance checks on coarse blocks through real rank processes (`dsmc run --ranks 4 --rebalance 10`): the ranks send
// their counts per block of the coarse grid (cellState 'coarse'), and every cell's state only where the blocks say a
// split pays ('full'). DSMC_BALANCE_COARSE_CELLS=400 makes the supersonic cavity's 40 x 40 cells 20 x 20 blocks of 2.
// The run re-splits as the gas piles up, gathers every cell only for those checks, and gives the one-rank fields.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-coarse-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

/** The --json summary of `dsmc run ARGS` (killed after 240 s). */
async function summaryOf(args: string[], env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const r = await runNode([BIN, 'run', ...args, '--data-dir', DATA_DIR, '--no-progress', '--json'], { env: { ...process.env, ...env }, timeout: 240_000 });
  if (r.status !== 0) throw new Error(`dsmc run ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

describe('rebalance checks on coarse blocks (4 rank processes, supersonic cavity)', () => {
  it('re-split where the blocks say a split pays, gathering every cell only then: UN down, the one-rank fields', async () => {
    // long enough for the pile-up to outweigh a column of blocks (on 2-cell blocks a lighter imbalance cannot be cut finer)
    const cavity = ['supersonic-cavity', '--set', 'run.steps=600', '--set', 'run.stepsPerSubmit=20', '--set', 'sampling.start=500'];
    const slabs = [...cavity, '--ranks', '4', '--decomposition', 'slab'];
    const coarse = { DSMC_BALANCE_COARSE_CELLS: '400' };
    const [one, fixed, balanced] = await Promise.all([summaryOf(cavity), summaryOf([...slabs, '--rebalance', 'off']), summaryOf([...slabs, '--rebalance', '10'], coarse)]);
    const balance = balanced.balance as { checks: number; fullChecks: number; checkBlock: number };
    expect(balance.checkBlock).toBe(2);
    const rebalances = balanced.rebalances as { step: number; moved: number }[];
    expect(rebalances.length).toBeGreaterThan(0);
    expect(balance.fullChecks).toBeGreaterThanOrEqual(rebalances.length);
    expect(balance.checks).toBeGreaterThan(balance.fullChecks); // most checks end on the blocks
    expect(balanced.loadNonUniformityMean).toBeLessThan(fixed.loadNonUniformityMean as number);
    expect(balanced.fieldsSha256).toBe(one.fieldsSha256);
    expect(fixed.fieldsSha256).toBe(one.fieldsSha256);
  });
});
