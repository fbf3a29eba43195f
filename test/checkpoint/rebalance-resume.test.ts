// Checkpoints of a dynamically balanced multi-rank run: the supersonic cavity on 4 rank processes with
// `--rebalance 10` and a checkpoint every 20 steps, the orchestrator SIGKILLed after some re-decompositions,
// resumed with `dsmc resume`: the run goes on balancing from the layout its checkpoint was written in and
// records bitwise the steps and fields of the same run left alone, with the same re-decompositions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withCheckpoints } from './cases.js';
import { dsmc, integrity, jsonOf, recorded, runAndKill } from './cli-harness.js';

const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-rebalance-resume-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

const CAVITY = ['supersonic-cavity', '--set', 'run.steps=600', '--set', 'run.stepsPerSubmit=20', '--set', 'sampling.start=400'];
const BALANCED = ['--ranks', '4', '--rebalance', '10', '--timing', 'off'];

describe('a balanced run with checkpoints', () => {
  it('killed after re-decompositions and resumed, records bitwise the run left alone, with the same re-decompositions', async () => {
    const left = jsonOf(await dsmc(DATA_DIR, ['run', ...CAVITY, ...BALANCED, '--json']), 'dsmc run (reference)');
    const events = left.rebalances as { step: number }[];
    expect(events.length).toBeGreaterThan(1);
    const reference = recorded(DATA_DIR, left.runId as number);

    // killed once the run is past its first re-decomposition and a later checkpoint
    const killAt = events[0].step + 60;
    const k = await runAndKill(DATA_DIR, ['run', ...withCheckpoints(CAVITY), ...BALANCED], killAt, { kind: 'orchestrator' });
    expect(k.killedAtStep).not.toBeNull();
    expect(integrity(DATA_DIR)).toBe('ok');
    expect(recorded(DATA_DIR, k.runId).status).toBe('failed');

    const resumed = jsonOf(await dsmc(DATA_DIR, ['resume', String(k.runId), '--json', '--timing', 'off']), 'dsmc resume');
    expect(resumed.runId).toBe(k.runId);
    expect(resumed.rebalances).toEqual(left.rebalances);
    const r = recorded(DATA_DIR, k.runId);
    const comparable = (x: typeof r) => ({ status: x.status, steps: x.steps, fields: x.fieldsSha256, errors: x.errorsSha256, blocks: x.blocks, samples: x.samples });
    expect(comparable(r)).toEqual(comparable(reference));
  }, 300_000);
});
