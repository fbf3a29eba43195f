// The Slurm test file on a machine without Slurm: skipped with one line naming what is missing and how to install it
// (checked on the detection function and on slurm-cluster.test.ts itself, run by a child vitest with a PATH that
// holds only node), never failing; and with DSMC_REQUIRE_SLURM=1 (CI) a missing Slurm is an error, not a skip.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-process.js';
import { SLURM_TOOLS, slurmMissing, slurmSkipReason } from './slurm-presence.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'dsmc-fake-slurm-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
/** A PATH folder holding only node (the Slurm tools live in /usr/bin and /usr/sbin, beside node on Debian). */
const nodeOnly = join(scratch, 'node-only');
mkdirSync(nodeOnly);
symlinkSync(process.execPath, join(nodeOnly, 'node'));
const fakeBin = join(scratch, 'fake-slurm');
mkdirSync(fakeBin);

describe('Slurm presence', () => {
  it('names every missing command and the install script when PATH has none of them', () => {
    const reason = slurmMissing({ PATH: nodeOnly }, 0);
    expect(reason).not.toBeNull();
    for (const [command] of SLURM_TOOLS) expect(reason).toContain(command);
    expect(reason).toContain('sudo sh .ci/install-slurm.sh');
    expect(reason!.split('\n')).toHaveLength(1);
  });

  it('with every command present: null as root, a line asking for root otherwise', () => {
    for (const [command] of SLURM_TOOLS) {
      writeFileSync(join(fakeBin, command), '#!/bin/sh\n');
      chmodSync(join(fakeBin, command), 0o755);
    }
    expect(slurmMissing({ PATH: fakeBin }, 0)).toBeNull();
    expect(slurmMissing({ PATH: fakeBin }, 1000)).toMatch(/need root/);
    // one command gone: named alone
    rmSync(join(fakeBin, 'munged'));
    expect(slurmMissing({ PATH: fakeBin }, 0)).toMatch(/skipped: munged not found on PATH/);
  });

  it('DSMC_REQUIRE_SLURM=1 turns a missing Slurm into an error (CI must run these tests)', () => {
    expect(() => slurmSkipReason({ PATH: '', DSMC_REQUIRE_SLURM: '1' })).toThrow(/DSMC_REQUIRE_SLURM=1 but slurmctld, .* not found on PATH/);
  });

  it('slurm-cluster.test.ts without Slurm on PATH is skipped with the one line, and vitest passes', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: nodeOnly, NO_COLOR: '1', FORCE_COLOR: '0' };
    delete env.DSMC_REQUIRE_SLURM;
    const r = await runNode([join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/slurm/slurm-cluster.test.ts', '--reporter=verbose'],
      { cwd: ROOT, env, timeout: 180_000 });
    const out = `${r.stdout}\n${r.stderr}`;
    expect(r.status, out).toBe(0);
    const lines = out.split('\n').filter((l) => l.includes('Slurm tests skipped:'));
    expect(lines, out).toHaveLength(1);
    expect(lines[0]).toContain('slurmctld');
    expect(lines[0]).toContain('sudo sh .ci/install-slurm.sh');
    expect(out).toMatch(/Tests\s+\d+ skipped/);
    expect(out).not.toMatch(/\d+ failed/);
  }, 200_000);
});
