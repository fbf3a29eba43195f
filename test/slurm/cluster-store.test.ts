// The run database's cluster half (migration 4): a version-3 database upgrades with its runs intact; cluster
// profiles are validated, listed, replaced and removed; a run's ranks and hosts are written all or none; and
// `dsmc cluster profile add|list|show|remove` over it, with errors that name the option and the fix.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS, migrate } from '../../src-main/store/migrations.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A fresh data folder. */
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'dsmc-cluster-store-'));
  dirs.push(d);
  return d;
}

/** A run to attach ranks to. */
function createRun(store: RunStore): number {
  return store.createRun({ project: 'p', caseName: 'box', caseJson: { name: 'box' }, seed: 1, ranks: 2, gpus: 2, adapter: { description: 'gpu', backend: 'vulkan' }, productVersion: '0' });
}

const RANKS = [
  { rank: 0, hostname: 'n1', gpu: '0000:07:00.0', pinned: true, pid: 100, adapterDescription: 'H100' },
  { rank: 1, hostname: 'n2', gpu: '0000:07:00.0', pinned: true, pid: 200, adapterDescription: 'H100' },
];

describe('migration 4', () => {
  it('upgrades a version-3 database, keeping its runs, and leaves migrations 1-3 as they were', () => {
    const dir = dataDir();
    const db = new Database(join(dir, 'runs.sqlite'));
    migrate(db, 3);
    db.prepare("INSERT INTO projects (id, name, created_at) VALUES (1, 'old', 't')").run();
    db.prepare("INSERT INTO cases (id, name, hash, json, created_at) VALUES (1, 'c', ?, '{}', 't')").run('a'.repeat(64));
    db.prepare(`INSERT INTO runs (id, project_id, case_id, status, started_at, seed, ranks, gpus, adapter_description, backend, product_version, hostname)
                VALUES (5, 1, 1, 'completed', 't', 1, 2, 2, 'gpu', 'vulkan', '0', 'elsewhere')`).run();
    db.close();
    // migration 4 follows 1-3 (later ones, such as 5's repeated study runs, come after it)
    expect(MIGRATIONS.map((m) => m.version).slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect(LATEST_VERSION).toBeGreaterThanOrEqual(4);
    const store = RunStore.open({ dataDir: dir });
    try {
      expect(store.getRun(5)).toMatchObject({ project: 'old', ranks: 2, status: 'completed' });
      expect(store.getRanks(5)).toEqual([]);
      expect(store.getLaunch(5)).toBeNull();
      expect(store.listClusterProfiles()).toEqual([]);
    } finally {
      store.close();
    }
  });
});

describe('cluster profiles and run ranks in the store', () => {
  it('saves, lists, replaces and removes profiles; refuses an invalid one naming the field', () => {
    const store = RunStore.open({ dataDir: dataDir() });
    try {
      store.saveClusterProfile({ name: 'b', partition: 'gpu' });
      store.saveClusterProfile({ name: 'a', account: 'x', modules: ['nodejs/20'] });
      expect(store.listClusterProfiles().map((p) => p.name)).toEqual(['a', 'b']);
      expect(store.getClusterProfile('a')).toMatchObject({ account: 'x', modules: ['nodejs/20'], nodes: 1 });
      store.saveClusterProfile({ name: 'b', partition: 'big', nodes: 8 });
      expect(store.getClusterProfile('b')).toMatchObject({ partition: 'big', nodes: 8 });
      expect(() => store.saveClusterProfile({ name: 'c', gpusPerNode: 0 })).toThrow(/gpusPerNode: at least 1/);
      expect(store.getClusterProfile('c')).toBeNull();
      expect(store.removeClusterProfile('a')).toBe(true);
      expect(store.removeClusterProfile('a')).toBe(false);
      expect(store.listClusterProfiles().map((p) => p.name)).toEqual(['b']);
    } finally {
      store.close();
    }
  });

  it('records ranks with their hosts and the Slurm job, all or none; deleting the run removes them', () => {
    const store = RunStore.open({ dataDir: dataDir() });
    try {
      const id = createRun(store);
      store.recordRanks(id, RANKS, { launcher: 'slurm', jobId: '42', profile: 'gpu' });
      expect(store.getRanks(id)).toEqual(RANKS);
      expect(store.getLaunch(id)).toEqual({ launcher: 'slurm', jobId: '42', profile: 'gpu' });
      expect(() => store.recordRanks(id, [{ ...RANKS[0], hostname: 'x' }, { ...RANKS[1], rank: -1 }], null)).toThrow(/recordRanks\(run \d+\) ranks: invalid input/);
      expect(store.getRanks(id)).toEqual(RANKS);
      expect(() => store.recordRanks(id, [RANKS[0], RANKS[0]], null)).toThrow(/UNIQUE/);
      expect(store.getRanks(id)).toEqual(RANKS);
      expect(() => store.recordRanks(9999, RANKS, null)).toThrow(/there is no run 9999/);
      store.finishRun(id, 'failed', 'test');
      store.deleteRun(id);
      expect(store.getRanks(id)).toEqual([]);
      expect(store.getLaunch(id)).toBeNull();
    } finally {
      store.close();
    }
  });
});

/** Runs dsmc in a data folder. */
async function dsmc(dir: string, args: string[]) {
  const r = await runNode([BIN, ...args, '--data-dir', dir], { timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('dsmc cluster profile', () => {
  it('add, list, show, remove, with errors naming the option and the fix', async () => {
    const dir = dataDir();
    const add = await dsmc(dir, ['cluster', 'profile', 'add', 'hpc', '--partition', 'gpu', '--account', 'p42', '--time', '2:00:00', '--module', 'nodejs/20',
      '--module', 'mesa/25', '--nodes', '4', '--gpus-per-node', '8', '--product-path', '/apps/dsmc', '--sbatch-option=--qos=high']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/saved cluster profile "hpc"/);
    const shown = JSON.parse((await dsmc(dir, ['cluster', 'profile', 'show', 'hpc', '--json'])).stdout);
    expect(shown).toMatchObject({ name: 'hpc', partition: 'gpu', account: 'p42', timeLimit: '2:00:00', modules: ['nodejs/20', 'mesa/25'], nodes: 4, gpusPerNode: 8, productPath: '/apps/dsmc', sbatchOptions: ['--qos=high'] });
    expect((await dsmc(dir, ['cluster', 'profile', 'list'])).stdout).toMatch(/hpc\s+gpu\s+p42\s+2:00:00\s+4\s+8\s+nodejs\/20 mesa\/25/);
    const again = await dsmc(dir, ['cluster', 'profile', 'add', 'hpc']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/cluster profile "hpc" exists; pass --replace/);
    const bad = await dsmc(dir, ['cluster', 'profile', 'add', 'x', '--time', 'soon', '--gpus-per-node', 'two']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--gpus-per-node: got "two"; expected a whole number/);
    const badTime = await dsmc(dir, ['cluster', 'profile', 'add', 'x', '--time', 'soon']);
    expect(badTime.stderr).toMatch(/timeLimit: use a Slurm time like 30/);
    expect((await dsmc(dir, ['cluster', 'profile', 'remove', 'hpc'])).stdout).toMatch(/removed cluster profile "hpc"/);
    const gone = await dsmc(dir, ['cluster', 'profile', 'show', 'hpc']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/there is no cluster profile "hpc"; add one with dsmc cluster profile add/);
    expect((await dsmc(dir, ['cluster', 'profile', 'list'])).stdout).toMatch(/no cluster profiles/);
  });

  it('dsmc run refuses Slurm options without --launcher slurm, and an unknown profile, naming the fix', async () => {
    const dir = dataDir();
    const r1 = await dsmc(dir, ['run', 'collide-box', '--nodes', '2']);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toMatch(/--nodes is for --launcher slurm; add --launcher slurm/);
    const r2 = await dsmc(dir, ['run', 'collide-box', '--launcher', 'pbs']);
    expect(r2.stderr).toMatch(/--launcher: got "pbs"; expected local .* or slurm/);
    const r3 = await dsmc(dir, ['run', 'collide-box', '--launcher', 'slurm', '--profile', 'nope']);
    expect(r3.code).toBe(1);
    expect(r3.stderr).toMatch(/--profile: there is no cluster profile "nope"/);
    const r4 = await dsmc(dir, ['run', 'collide-box', '--launcher', 'slurm', '--nodes', '2', '--gpus-per-node', '2', '--ranks', '3']);
    expect(r4.stderr).toMatch(/--ranks 3 does not match --nodes 2 x --gpus-per-node 2 = 4/);
  });
});
