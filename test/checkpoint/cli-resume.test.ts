// `dsmc run` with checkpoints and `dsmc resume` through the real CLI: the orchestrator or a rank killed
// (SIGKILL) on 1 and 2 ranks (also with a vibrating gas), resumed into the same run, records bitwise the steps, totals and fields of a
// run that never stopped; damaged checkpoints are refused naming the file (falling back to the previous
// one, or failing clearly when none is left); two runs at once on one database do not interfere.
import { existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointSteps, runCheckpointFolder, stepFolder } from '../../src-main/solver/checkpoint/checkpoint-folder.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { BOX, CHANNEL, MOLECULAR_CHANNEL, withCheckpoints } from './cases.js';
import { dsmc, integrity, jsonOf, recorded, runAndKill } from './cli-harness.js';

const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-resume-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

/** Runs a case to the end without checkpoints; returns what it recorded. */
async function reference(args: string[]) {
  const { runId } = jsonOf(await dsmc(DATA_DIR, ['run', ...args, '--json', '--timing', 'off']), `dsmc run ${args[0]}`) as { runId: number };
  return recorded(DATA_DIR, runId);
}

/** What must match between a resumed run and its reference (totals: one-rank runs record them). */
function comparable(r: ReturnType<typeof recorded>, totals: boolean) {
  return { status: r.status, steps: r.steps, fields: r.fieldsSha256, errors: r.errorsSha256, blocks: r.blocks, samples: r.samples, ...(totals ? { totals: r.totals } : {}) };
}

let box: ReturnType<typeof recorded>;
let channel: ReturnType<typeof recorded>;
let molecular: ReturnType<typeof recorded>;
beforeAll(async () => {
  box = await reference(BOX);
  channel = await reference(CHANNEL);
  molecular = await reference(MOLECULAR_CHANNEL);
  expect(box.samples).toBeGreaterThan(0);
  expect(channel.samples).toBeGreaterThan(0);
});

describe.each([
  ['collide box, 1 rank, orchestrator killed', BOX, 1, { kind: 'orchestrator' }, () => box],
  ['channel, 1 rank, orchestrator killed', CHANNEL, 1, { kind: 'orchestrator' }, () => channel],
  ['collide box, 2 ranks, rank 1 killed', BOX, 2, { kind: 'rank', rank: 1 }, () => box],
  ['channel, 2 ranks, orchestrator killed', CHANNEL, 2, { kind: 'orchestrator' }, () => channel],
  ['channel of vibrating N2, 2 ranks, rank 1 killed', MOLECULAR_CHANNEL, 2, { kind: 'rank', rank: 1 }, () => molecular],
] as const)('%s', (_name, args, ranks, target, ref) => {
  it('resumes into the same run and records bitwise the uninterrupted result', async () => {
    const k = await runAndKill(DATA_DIR, ['run', ...withCheckpoints(args), '--ranks', String(ranks), '--timing', 'off'], 97, target);
    expect(k.killedAtStep).not.toBeNull();
    expect(integrity(DATA_DIR)).toBe('ok');
    const killed = recorded(DATA_DIR, k.runId);
    expect(killed.status).toBe('failed');
    const resumed = jsonOf(await dsmc(DATA_DIR, ['resume', String(k.runId), '--json', '--timing', 'off']), 'dsmc resume');
    expect(resumed.runId).toBe(k.runId);
    // the run now records the resumed attempt's rank processes (a later resume waits for those)
    const pids = rankPids(k.runId);
    expect(pids).toHaveLength(ranks === 1 ? 0 : ranks);
    for (const pid of pids) expect(k.rankPids).not.toContain(pid);
    expect(integrity(DATA_DIR)).toBe('ok');
    expect(comparable(recorded(DATA_DIR, k.runId), ranks === 1)).toEqual(comparable(ref(), ranks === 1));
    // a completed run keeps no checkpoints, and cannot be resumed again
    expect(existsSync(runCheckpointFolder(DATA_DIR, k.runId))).toBe(false);
    const again = await dsmc(DATA_DIR, ['resume', String(k.runId)]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`run ${k.runId} is completed; only a failed or cancelled run can be resumed`);
  });
});

describe('damaged checkpoints', () => {
  it('a truncated newest checkpoint is refused naming the file; the previous one resumes bitwise', async () => {
    const k = await runAndKill(DATA_DIR, ['run', ...withCheckpoints(BOX), '--timing', 'off'], 120, { kind: 'orchestrator' });
    const folder = runCheckpointFolder(DATA_DIR, k.runId);
    const [newest, previous] = checkpointSteps(folder).filter((s) => existsSync(join(stepFolder(folder, s), 'manifest.json')));
    expect(previous).toBeLessThan(newest);
    const damaged = join(stepFolder(folder, newest), 'rank-0.bin');
    truncateSync(damaged, 1000);
    const r = await dsmc(DATA_DIR, ['resume', String(k.runId), '--json', '--timing', 'off']);
    expect(r.stderr).toContain(`refused: checkpoint file ${damaged} has 1000 bytes, its manifest says`);
    jsonOf(r, 'dsmc resume');
    expect(comparable(recorded(DATA_DIR, k.runId), true)).toEqual(comparable(box, true));
  });

  it('with every checkpoint damaged, resume fails naming each file and changes nothing', async () => {
    const k = await runAndKill(DATA_DIR, ['run', ...withCheckpoints(BOX), '--timing', 'off'], 120, { kind: 'orchestrator' });
    const folder = runCheckpointFolder(DATA_DIR, k.runId);
    // newest first; two are kept, three when the kill fell between the newest manifest and the prune
    const complete = checkpointSteps(folder).filter((s) => existsSync(join(stepFolder(folder, s), 'manifest.json')));
    expect(complete.length).toBeGreaterThanOrEqual(2);
    expect(complete.length).toBeLessThanOrEqual(3);
    const manifest = join(stepFolder(folder, complete[0]), 'manifest.json');
    const flipped = complete.slice(1).map((s) => join(stepFolder(folder, s), 'loop.bin'));
    writeFileSync(manifest, '{"format": 1, "step": ');
    for (const f of flipped) writeFileSync(f, Buffer.alloc(64)); // wrong size and hash
    const before = recorded(DATA_DIR, k.runId);
    const r = await dsmc(DATA_DIR, ['resume', String(k.runId)]);
    expect(r.code).toBe(1);
    for (const f of flipped) expect(r.stderr).toContain(f);
    expect(r.stderr).toContain(`checkpoint manifest ${manifest} is damaged`);
    expect(r.stderr).toContain('Run the case again (dsmc run)');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(recorded(DATA_DIR, k.runId)).toEqual(before);
    expect(integrity(DATA_DIR)).toBe('ok');
  });

  it('a run without checkpoints cannot be resumed and says how to get them', async () => {
    const k = await runAndKill(DATA_DIR, ['run', ...BOX, '--timing', 'off'], 60, { kind: 'orchestrator' });
    const r = await dsmc(DATA_DIR, ['resume', String(k.runId)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no complete checkpoint in');
    expect(r.stderr).toContain('or its case has run.checkpointEvery 0; run the case again, with checkpoints on (e.g. --set run.checkpointEvery=100)');
    expect(recorded(DATA_DIR, k.runId).status).toBe('failed');
  });
});

describe('two runs at once on one database', () => {
  it('do not interfere: one killed and resumed, the other finishing meanwhile, both bitwise their references', async () => {
    const other = dsmc(DATA_DIR, ['run', ...withCheckpoints(CHANNEL), '--ranks', '2', '--json', '--timing', 'off']);
    const k = await runAndKill(DATA_DIR, ['run', ...withCheckpoints(BOX), '--timing', 'off'], 83, { kind: 'orchestrator' });
    const resumed = dsmc(DATA_DIR, ['resume', String(k.runId), '--json', '--timing', 'off']);
    const [o, r] = await Promise.all([other, resumed]);
    const otherId = (jsonOf(o, 'the concurrent dsmc run') as { runId: number }).runId;
    jsonOf(r, 'dsmc resume');
    expect(otherId).not.toBe(k.runId);
    expect(integrity(DATA_DIR)).toBe('ok');
    expect(comparable(recorded(DATA_DIR, k.runId), true)).toEqual(comparable(box, true));
    expect(comparable(recorded(DATA_DIR, otherId), false)).toEqual(comparable(channel, false));
  });
});

/** The recorded pids of a run's rank processes. */
function rankPids(runId: number): (number | null)[] {
  const store = RunStore.open({ dataDir: DATA_DIR });
  try {
    return store.getRanks(runId).map((r) => r.pid);
  } finally {
    store.close();
  }
}
