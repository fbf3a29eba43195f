// The pre-launch check of cases with bodies through the real `dsmc` (issue 25 items 5 and 19): a body filling the
// whole box is refused (before: accepted, and the run completed with 0 particles), and `dsmc check` estimates the
// initial particles over the gas volume (before: over the whole box, bodies included), which the run then places.
// Uses the compiled out/ (npx tsc -p tsconfig.json).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DIR = mkdtempSync(join(tmpdir(), 'dsmc-prelaunch-bodies-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** dsmc with args (no database). */
async function dsmc(args: string[]) {
  const r = await runNode([BIN, ...args], { timeout: 120_000, env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? '/tmp' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The sphere preset changed by `edit`, written to DIR/name.json. */
function sphereCase(name: string, edit: (c: any) => void): string {
  const c = JSON.parse(readFileSync(new URL('../../resources/cases/sphere-free-molecular.json', import.meta.url), 'utf8'));
  delete c.$schema;
  edit(c);
  const path = join(DIR, `${name}.json`);
  writeFileSync(path, JSON.stringify(c));
  return path;
}

describe('pre-launch check with bodies', () => {
  it('refuses a body filling the whole box (item 5)', async () => {
    const file = sphereCase('fill', (c) => {
      const L = c.grid.cells.map((n: number, a: number) => n * c.grid.cellSize[a]);
      c.bodies = [{ name: 'fill', shape: { type: 'box', min: [0, 0, 0], max: L }, surface: { model: 'specular' } }];
      for (const f of ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax']) c.boundaries[f] = { type: 'specular' };
    });
    const check = await dsmc(['check', file, '--json']);
    expect(check.code).not.toBe(0);
    const report = JSON.parse(check.stdout.trim().split('\n').pop()!);
    expect(report.ok).toBe(false);
    expect(report.errors[0]).toMatchObject({ code: 'no-gas-volume', field: 'bodies' });
    expect(report.errors[0].message).toMatch(/the bodies fill the whole box .* shrink or move the bodies, or enlarge the box/);
    const run = await dsmc(['run', file, '--no-save', '--no-progress', '--set', 'run.steps=2']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/no-gas-volume/);
  }, 120_000);

  it('estimates the initial particles over the gas volume, as the run places them (item 19)', async () => {
    const file = sphereCase('sphere', (c) => { c.bodies[0].shape.radius = 0.2; });
    const report = JSON.parse((await dsmc(['check', file, '--json'])).stdout.trim().split('\n').pop()!);
    const c = JSON.parse(readFileSync(file, 'utf8'));
    const boxVolume = c.grid.cells.reduce((v: number, n: number, a: number) => v * n * c.grid.cellSize[a], 1);
    const wholeBox = (c.initial.numberDensity * boxVolume) / report.estimates.fnum;
    const run = await dsmc(['run', file, '--no-save', '--no-progress', '--json', '--set', 'run.steps=1']);
    expect(run.code, run.stderr).toBe(0);
    const placed = JSON.parse(run.stdout.trim().split('\n').pop()!).conservation.particlesStart;
    // the sphere takes (4/3) pi 0.2^3 = 0.0335 m^3 of the 0.216 m^3 box (a 16 % difference); Poisson noise is 0.5 %
    expect(report.estimates.particles).toBeLessThan(0.9 * wholeBox);
    expect(Math.abs(placed - report.estimates.particles)).toBeLessThan(4 * Math.sqrt(report.estimates.particles));
  }, 120_000);
});
