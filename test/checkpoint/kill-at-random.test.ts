// Kill test: runs with checkpoints are SIGKILLed at random steps (seeded), the orchestrator or any rank, on 1
// and 2 ranks, 22 times by default (DSMC_KILLS, DSMC_KILL_SEED to explore), all on one run database; some
// resumed runs are killed again. After every kill: PRAGMA integrity_check is ok and the run shows failed (not
// running) once the store is opened again; the last checkpoint resumes to bitwise the steps, totals and fields
// of a run that never stopped (or, killed before the first checkpoint completed, resume says there is none).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededUniform } from '../seeded-random.js';
import { BOX, CHANNEL, EVERY, withCheckpoints } from './cases.js';
import { dsmc, integrity, jsonOf, recorded, runAndKill, type KillTarget } from './cli-harness.js';

const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-kill-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

const SEED = Number(process.env.DSMC_KILL_SEED ?? 20261122);
const KILLS = Number(process.env.DSMC_KILLS ?? 22);
/** Steps per submit of the cases (cases.ts); a multi-rank checkpoint completes when the next submit merges. */
const CHUNK = 5;

/** What must match a reference (totals: one-rank runs record them). */
function comparable(r: ReturnType<typeof recorded>, totals: boolean) {
  return { status: r.status, steps: r.steps, fields: r.fieldsSha256, errors: r.errorsSha256, blocks: r.blocks, samples: r.samples, ...(totals ? { totals: r.totals } : {}) };
}

/** The drawn plan of one kill. */
interface Plan { name: 'box' | 'channel'; ranks: 1 | 2; target: KillTarget; atStep: number; killResumeAt: number | null }

/** Draws the kills from the seed. */
function plans(): Plan[] {
  const u = seededUniform(SEED);
  return Array.from({ length: KILLS }, () => {
    const name = u() < 0.5 ? 'box' : 'channel';
    const ranks = u() < 0.5 ? 1 : 2;
    const pick = Math.floor(u() * 3);
    const target: KillTarget = ranks === 1 || pick === 0 ? { kind: 'orchestrator' } : { kind: 'rank', rank: pick - 1 };
    const atStep = 1 + Math.floor(u() * 185);
    const killResumeAt = u() < 0.3 ? atStep + 1 + Math.floor(u() * (195 - atStep)) : null;
    return { name, ranks, target, atStep, killResumeAt } as Plan;
  });
}

const references: Record<'box' | 'channel', ReturnType<typeof recorded> | null> = { box: null, channel: null };
beforeAll(async () => {
  for (const [name, args] of [['box', BOX], ['channel', CHANNEL]] as const) {
    const { runId } = jsonOf(await dsmc(DATA_DIR, ['run', ...args, '--json', '--timing', 'off']), `dsmc run ${name}`) as { runId: number };
    references[name] = recorded(DATA_DIR, runId);
  }
});

/** The checks after any kill: the database is sound and the run no longer shows running. */
function afterKill(runId: number): void {
  expect(integrity(DATA_DIR)).toBe('ok');
  const r = recorded(DATA_DIR, runId);
  expect(r.status).toBe('failed');
}

describe(`SIGKILL at random steps (seed ${SEED})`, () => {
  const outcomes: string[] = [];
  afterAll(() => { process.stdout.write(`kill test outcomes:\n  ${outcomes.join('\n  ')}\n`); });

  it.each(plans().map((p, i) => [i + 1, p] as const))('kill %i: %o', async (_i, p) => {
    const args = [...withCheckpoints(p.name === 'box' ? BOX : CHANNEL), '--ranks', String(p.ranks), '--timing', 'off'];
    const k = await runAndKill(DATA_DIR, ['run', ...args], p.atStep, p.target);
    expect(k.killedAtStep, 'the run ended before the kill').not.toBeNull();
    afterKill(k.runId);
    let resumed = dsmcResume(k.runId, p.killResumeAt);
    let outcome = `${p.name} ${p.ranks} rank(s), ${p.target.kind}${p.target.kind === 'rank' ? ` ${p.target.rank}` : ''} killed at step ${k.killedAtStep}`;
    let r = await resumed;
    if (r.kind === 'no checkpoint') {
      // only possible when the kill came before the first checkpoint could complete
      expect(k.killedAtStep!).toBeLessThan(EVERY + 2 * CHUNK);
      expect(recorded(DATA_DIR, k.runId).status).toBe('failed');
      outcomes.push(`${outcome}: no checkpoint yet, resume refused clearly`);
      return;
    }
    if (r.kind === 'killed') {
      outcome += `, resume killed at step ${r.at}`;
      afterKill(k.runId);
      resumed = dsmcResume(k.runId, null);
      r = await resumed;
    }
    expect(r.kind).toBe('done');
    expect(integrity(DATA_DIR)).toBe('ok');
    expect(comparable(recorded(DATA_DIR, k.runId), p.ranks === 1)).toEqual(comparable(references[p.name]!, p.ranks === 1));
    outcomes.push(`${outcome}: resumed, bitwise equal`);
  });
});

/** Resumes a run to the end, or kills the resume's orchestrator once it recorded step `killAt`. */
async function dsmcResume(runId: number, killAt: number | null): Promise<{ kind: 'done' } | { kind: 'no checkpoint' } | { kind: 'killed'; at: number }> {
  if (killAt !== null) {
    const k = await runAndKill(DATA_DIR, ['resume', String(runId), '--timing', 'off'], killAt, { kind: 'orchestrator' }, runId).catch((e: Error) => e);
    if (k instanceof Error) {
      if (k.message.includes('the run stopped before its first checkpoint completed')) return { kind: 'no checkpoint' };
      throw k;
    }
    if (k.killedAtStep !== null) return { kind: 'killed', at: k.killedAtStep };
    return { kind: 'done' };
  }
  const r = await dsmc(DATA_DIR, ['resume', String(runId), '--timing', 'off']);
  if (r.code !== 0 && r.stderr.includes('the run stopped before its first checkpoint completed')) return { kind: 'no checkpoint' };
  if (r.code !== 0) throw new Error(`dsmc resume ${runId} exited ${r.code}: ${r.stderr}`);
  return { kind: 'done' };
}
