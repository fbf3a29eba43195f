// The `dsmc` command as a user runs it (bin/dsmc.js on the compiled out/; `npm test` builds first):
// --json summary shape, errors on stderr with exit codes and no stack traces, no-adapter message.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
/** Runs are saved by default: keep them out of the user's data folder. */
const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-cli-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

/** Runs dsmc with args; a run that has not finished after 120 s is killed (and fails the test). */
async function dsmc(args: string[], env: Record<string, string> = {}) {
  const r = await runNode([BIN, ...args], { timeout: 120_000, env: { ...process.env, DSMC_DATA_DIR: DATA_DIR, ...env } });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** The JSON object on the last line of stdout. */
function lastJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

describe('dsmc run', () => {
  it('prints the summary as JSON on the last line', async () => {
    const r = await dsmc(['run', 'collide-box', '--set', 'run.steps=6', '--set', 'grid.cells=[8,8,8]', '--json']);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(0);
    const s = lastJson(r.stdout);
    for (const k of ['steps', 'particles', 'particleSteps', 'seconds', 'particleStepsPerSecond', 'collisionsPerParticleStep',
      'candidatesPerParticleStep', 'phases', 'conservation', 'samples', 'fieldsSha256', 'adapter']) expect(s, k).toHaveProperty(k);
    expect(s.steps).toBe(6);
    expect(s.particles).toBe(5120);
    expect(s.particleSteps).toBe(6 * 5120);
    expect(s.samples).toBe(6);
    expect(s.fieldsSha256).toMatch(/^[0-9a-f]{64}$/);
    // the set-up before the loop (tables, check, buffers, fill): measured, and not part of the loop's seconds
    expect(s.setupSeconds).toBeGreaterThan(0);
    // and where it went: the parts, one after the other on one rank, add up to it
    const parts = s.setupParts as Record<string, number>;
    for (const k of ['device', 'tables', 'check', 'buffers', 'pipelines', 'fill']) expect(parts[k], k).toBeGreaterThan(0);
    const partsSum = Object.values(parts).reduce((a, b) => a + b, 0);
    expect(partsSum).toBeLessThanOrEqual(s.setupSeconds as number);
    expect(partsSum).toBeGreaterThan(0.9 * (s.setupSeconds as number));
    // the time from the loop's end to the summary: at least the sampled fields' fold
    expect(s.finishSeconds as number).toBeGreaterThanOrEqual((s.host as { foldSeconds: number }).foldSeconds);
    const phases = s.phases as Record<string, { calls: number; totalSeconds: number; avgSeconds: number }>;
    for (const name of ['move', 'sort', 'collide', 'sample']) {
      expect(phases[name].calls).toBe(6);
      expect(phases[name].avgSeconds).toBeCloseTo(phases[name].totalSeconds / 6, 12);
    }
    expect(Object.keys(s.conservation as object).sort()).toEqual(['energyRelDrift', 'momentumRelDrift', 'particlesEnd', 'particlesStart']);
    expect((s.adapter as { description: string }).description.length).toBeGreaterThan(0);
  });

  it('times phases by wall clock when asked', async () => {
    const r = await dsmc(['run', 'free-stream', '--set', 'run.steps=4', '--timing', 'wall', '--json']);
    expect(r.code).toBe(0);
    const s = lastJson(r.stdout);
    expect(s.timing).toBe('wall-clock');
    expect((s.phases as Record<string, { calls: number }>).inject.calls).toBe(4);
  });

  it('times the sort stages with --detail and nothing with --timing off, with the same result', async () => {
    const base = ['run', 'collide-box', '--set', 'run.steps=6', '--set', 'grid.cells=[6,6,6]', '--json'];
    const detail = lastJson((await dsmc([...base, '--detail'])).stdout);
    expect(Object.keys(detail.phases as object).sort()).toEqual(['collide', 'move', 'sample', 'sample-close', 'sort.order', 'sort.permute', 'sort.scan', 'sort.scatter']);
    const off = lastJson((await dsmc([...base, '--timing', 'off'])).stdout);
    expect(off.timing).toBe('off');
    expect(off.phases).toEqual({});
    // timing changes how work is submitted, never the physics
    expect(off.fieldsSha256).toBe(detail.fieldsSha256);
  });

  it('times one call in 8 of each phase by default and every call with --timing full, with the same result', async () => {
    const base = ['run', 'collide-box', '--set', 'run.steps=20', '--set', 'grid.cells=[6,6,6]', '--json'];
    const sampled = lastJson((await dsmc(base)).stdout);
    const full = lastJson((await dsmc([...base, '--timing', 'full'])).stdout);
    expect(sampled.timing).toBe('gpu-timestamps');
    expect(sampled.timedEvery).toBe(8);
    expect(full.timing).toBe('gpu-timestamps');
    expect(full).not.toHaveProperty('timedEvery');
    for (const s of [sampled, full]) {
      const phases = s.phases as Record<string, { calls: number; totalSeconds: number }>;
      for (const name of ['move', 'sort', 'collide', 'sample']) {
        expect(phases[name].calls).toBe(20);
        expect(phases[name].totalSeconds).toBeGreaterThan(0);
      }
    }
    expect(sampled.fieldsSha256).toBe(full.fieldsSha256);
    // the human summary says how the phases were timed
    const text = (await dsmc(base.filter((a) => a !== '--json'))).stdout;
    expect(text).toMatch(/phase timing \(gpu-timestamps; one call in 8 of each phase timed/);
  });

  it('names every bad field, exits 2 and prints no stack trace', async () => {
    const r = await dsmc(['run', 'collide-box', '--set', 'grid.cells=[0,1,2]', '--set', 'run.dt=-1', '--set', 'bogus=3']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('grid.cells[0]: got 0');
    expect(r.stderr).toContain('run.dt: got -1');
    expect(r.stderr).toContain('"bogus"');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects a malformed --set and an unknown case with the fix in the message', async () => {
    const bad = await dsmc(['run', 'collide-box', '--set', 'nonsense']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('expected --set path=value');
    const missing = await dsmc(['run', 'no-such-case']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('collide-box');
  });

  it('says which driver to install when no adapter exists, without hanging', async () => {
    const r = await dsmc(['run', 'collide-box', '--set', 'run.steps=1'], { VK_DRIVER_FILES: '/nonexistent.json', VK_ICD_FILENAMES: '/nonexistent.json' });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('mesa-vulkan-drivers');
  });
});

describe('dsmc bench and check', () => {
  it('runs the collide-box benchmark at a requested size', async () => {
    const r = await dsmc(['bench', '--particles', '10000', '--set', 'run.steps=5', '--json']);
    expect(r.code).toBe(0);
    const s = lastJson(r.stdout);
    expect(s.case).toBe('collide-box');
    expect(s.particles).toBe(10000);
    expect(s.samples).toBe(0);
  });

  it('prints the pre-launch check and refuses a case that does not fit the adapter', async () => {
    const ok = await dsmc(['check', 'collide-box', '--json']);
    expect(ok.code).toBe(0);
    expect(lastJson(ok.stdout).ok).toBe(true);
    // 64e6 cells and 640e6 particles do not fit lavapipe's 128 MiB bindings
    const big = await dsmc(['check', 'collide-box', '--set', 'grid.cells=[400,400,400]']);
    expect(big.code).toBe(1);
    expect(big.stdout + big.stderr).toMatch(/binding|buffer/i);
  });

  it('checks a run on several ranks: the balance it would start with and why, one line a rank, every rank\'s buffers', async () => {
    const wedge = ['check', 'hypersonic-wedge', '--set', 'grid.cells=[80,40,1]', '--set', 'grid.cellSize=[2.5e-3,2.5e-3,2.5e-3]', '--set', 'particles.perCell=4'];
    const text = await dsmc([...wedge, '--ranks', '4']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^balance on 4 ranks: rcb \(the default where bodies cut the box.*; initial split weighted by each cell's gas volume .*; rebalanced when UN > 20 % .*\(the default; /m);
    // one line a rank: its box, cells and share of the gas; together every cell and all the gas
    const lines = [...text.stdout.matchAll(/^ {2}rank (\d): cells .*, (\d+) cells, ([\d.]+) % of the gas$/gm)];
    expect(lines.map((m) => Number(m[1]))).toEqual([0, 1, 2, 3]);
    expect(lines.reduce((a, m) => a + Number(m[2]), 0)).toBe(80 * 40);
    expect(lines.reduce((a, m) => a + Number(m[3]), 0)).toBeCloseTo(100, 0);
    expect(text.stdout).toMatch(/^ {2}first split: UN of the ranks' gas [\d.]+ %/m);
    expect(text.stdout).toMatch(/^Pre-launch check: OK/m);
    // the user's choices, in JSON: the plan says so, and the first split weighs the gas volume (bodies)
    const json = lastJson((await dsmc([...wedge, '--ranks', '4', '--decomposition', 'slab', '--rebalance', 'off', '--json'])).stdout) as { ok: boolean; balance: { ranks: number; method: string; rebalancePercent: number | null; reason: string; unPercent: number; parts: { gasShare: number; cells: number }[] } };
    expect(json.ok).toBe(true);
    expect(json.balance).toMatchObject({ ranks: 4, method: 'slab', rebalancePercent: null });
    expect(json.balance.reason).toMatch(/^slab \(--decomposition slab\); initial split weighted by each cell's gas volume .*; no rebalancing \(--rebalance off\)$/);
    expect(json.balance.parts.map((p) => p.cells)).not.toEqual([800, 800, 800, 800]);
    expect(json.balance.unPercent).toBeLessThan(10);
    // every rank's part is checked: a box too big for lavapipe's bindings on 2 ranks names each rank's errors
    const big = await dsmc(['check', 'collide-box', '--set', 'grid.cells=[400,400,400]', '--ranks', '2']);
    expect(big.code).toBe(1);
    expect(big.stdout).toMatch(/^Pre-launch check: REFUSED/m);
    expect(big.stdout).toMatch(/^ERROR rank 1 \[[a-z-]+\] /m);
  });
});
