// A gas of two species (Ar + He) on the command line (issue 28): the --json summary's composition, `dsmc fields`
// with per-species fields, `dsmc export vtk`, `dsmc report profile` (HTML: the composition section) and
// `dsmc compare` (the species fields compared like the others), all against the stored fields; on two rank processes
// the same fields and composition as on one. Uses the compiled
// out/ (npm test builds it first).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../../src-main/common/reports/compare-model.js';
import type { RunSummary } from '../../src-main/common/run-summary.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { csvSections, htmlKeyedValues, parseVti } from '../reports/parse-helpers.js';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DIR = mkdtempSync(join(tmpdir(), 'dsmc-species-cli-'));
const DATA = join(DIR, 'data');
const SPECIES = ['Ar', 'He'] as const;

/** Runs dsmc with args and the temporary data folder; killed after 120 s. */
async function dsmc(args: string[]) {
  const r = await runNode([BIN, ...args, '--data-dir', DATA], { timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the Ar + He box with a seed; its --json summary (with runId). */
async function runMixture(seed: number, more: string[] = []): Promise<RunSummary & { runId: number }> {
  const sets = ['species=[{"use":"Ar"},{"use":"He"}]', 'initial.fractions={"Ar":0.75,"He":0.25}', 'grid.cells=[4,4,4]', 'particles.perCell=40',
    'run.steps=80', 'run.stepsPerSubmit=5', 'sampling.start=20', `run.seed=${seed}`];
  const r = await dsmc(['run', 'collide-box', ...sets.flatMap((s) => ['--set', s]), ...more, '--json', '--no-progress']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/** Parses `dsmc fields` CSV: the comment line, the header and the rows as numbers (empty cells NaN). */
function parseCsv(text: string): { comment: string; header: string[]; rows: number[][] } {
  const [comment, head, ...rest] = text.trim().split('\n');
  return { comment, header: head.split(','), rows: rest.map((l) => l.split(',').map((c) => (c === '' ? NaN : Number(c)))) };
}

let a: RunSummary & { runId: number }, b: RunSummary & { runId: number };
let store: RunStore;

beforeAll(async () => {
  [a, b] = [await runMixture(1), await runMixture(2)];
  store = RunStore.open({ dataDir: DATA });
});

afterAll(() => {
  store?.close();
  rmSync(DIR, { recursive: true, force: true });
});

describe('a two-species gas on the command line', () => {
  it('the --json summary gives the composition: mean mole fractions from the fields, particles per species over time', () => {
    const c = a.composition!;
    expect(c.species).toEqual(SPECIES);
    expect(c.from).toBe('fields');
    // the fields' own box mean: x_s weighted by each cell's sampled particles
    const f = store.getFields(a.runId)!;
    const pps = f.values.particlesPerSample;
    const total = pps.reduce((s, x) => s + x, 0);
    SPECIES.forEach((s, k) => {
      const x = f.values[`x_${s}`]!;
      expect(c.moleFractions[k]).toBeCloseTo(x.reduce((sum, v, i) => sum + v * pps[i], 0) / total, 12);
    });
    expect(c.moleFractions[0] + c.moleFractions[1]).toBeCloseTo(1, 12);
    // a closed box: every entry over time holds the run's particles, in the same split
    expect(c.overTime.length).toBeGreaterThanOrEqual(2);
    expect(c.overTime[0].step).toBe(0);
    for (const e of c.overTime) {
      expect(e.speciesCounts[0] + e.speciesCounts[1], `step ${e.step}`).toBe(a.particles);
      expect(e.speciesCounts).toEqual(c.overTime[0].speciesCounts);
    }
    // the fractions counted and sampled are the same molecules
    expect(c.moleFractions[0]).toBeCloseTo(c.overTime[0].speciesCounts[0] / a.particles, 12);
  });

  it('dsmc show prints the composition line and lists the species fields', async () => {
    const r = await dsmc(['show', String(a.runId)]);
    expect(r.code, r.stderr).toBe(0);
    const [xa, xh] = a.composition!.moleFractions.map((x) => x.toFixed(4));
    expect(r.stdout).toContain(`composition: Ar ${xa}, He ${xh} (mole fractions, from the sampled fields)`);
    expect(r.stdout).toMatch(/^fields: n, ux, .*particlesPerSample, n_Ar, n_He, x_Ar, x_He$/m);
  });

  it('dsmc fields prints the species fields with their errors; an absent species is refused by name', async () => {
    const f = store.getFields(a.runId)!;
    const out = parseCsv((await dsmc(['fields', String(a.runId), '--line', 'x=1,y=2', '--fields', 'n,n_Ar,n_He,x_He'])).stdout);
    expect(out.header).toEqual(['i', 'j', 'k', 'x', 'y', 'z', 'n', 'n_se', 'n_Ar', 'n_Ar_se', 'n_He', 'n_He_se', 'x_He', 'x_He_se']);
    expect(out.rows).toHaveLength(4);
    for (const row of out.rows) {
      const c = 1 + 4 * (2 + 4 * row[2]);
      expect(row.slice(6)).toEqual([f.values.n[c], f.errors.n[c], f.values.n_Ar![c], f.errors.n_Ar![c], f.values.n_He![c], f.errors.n_He![c], f.values.x_He![c], f.errors.x_He![c]]);
      expect(Math.abs(row[8] + row[10] - row[6]) / row[6]).toBeLessThan(1e-12);
      expect(row[13]).toBeGreaterThan(0);
    }
    expect(out.comment).toMatch(/n_Ar m\^-3, n_He m\^-3, x_He 1/);
    const all = parseCsv((await dsmc(['fields', String(a.runId), '--point', 'x=0,y=0,z=0'])).stdout);
    expect(all.header.slice(-8)).toEqual(['n_Ar', 'n_Ar_se', 'n_He', 'n_He_se', 'x_Ar', 'x_Ar_se', 'x_He', 'x_He_se']);
    const bad = await dsmc(['fields', String(a.runId), '--plane', 'z=0', '--fields', 'x_Ne']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--fields: field x_Ne: this run has no x_Ne .*two or more species/);
  });

  it('dsmc export vtk writes the species fields and their errors', async () => {
    const out = join(DIR, 'mixture.vti');
    const r = await dsmc(['export', 'vtk', String(a.runId), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const xml = readFileSync(out, 'utf8');
    const v = parseVti(xml);
    const f = store.getFields(a.runId)!;
    for (const name of ['n_Ar', 'n_He', 'x_Ar', 'x_He'] as const) {
      expect(v.cellArrays[name].values, name).toEqual(f.values[name]);
      expect(v.cellArrays[`${name}_stderr`].values, name).toEqual(f.errors[name]);
    }
    expect(xml).toContain('x_Ar [1]');
  });

  it('the HTML profile report shows the composition and its chart', async () => {
    const out = join(DIR, 'profile.html');
    const r = await dsmc(['report', 'profile', String(a.runId), '--format', 'html', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<h2>Composition</h2>');
    const keyed = htmlKeyedValues(html);
    expect(Number(keyed['composition.moleFractions.0'])).toBe(a.composition!.moleFractions[0]);
    expect(Number(keyed['composition.moleFractions.1'])).toBe(a.composition!.moleFractions[1]);
    expect(Number(keyed['composition.last.1'])).toBe(a.composition!.overTime.at(-1)!.speciesCounts[1]);
    expect(html).toContain('<figure id="chart-composition">');
    // the field maps: the mole fractions of the mixture after the fixed fields
    expect(html).toContain('<figure id="map-x_Ar" data-field="x_Ar">');
    expect(html).toContain('<figure id="map-x_He" data-field="x_He">');
  });

  it('the CSV profile holds the composition and the particles per species over time', async () => {
    const out = join(DIR, 'profile.csv');
    const r = await dsmc(['report', 'profile', String(a.runId), '--format', 'csv', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const t = csvSections(readFileSync(out, 'utf8'));
    const c = a.composition!;
    expect(t.composition.header).toEqual(['species', 'mole_fraction', 'from']);
    expect(t.composition.rows).toEqual(c.species.map((name, s) => [name, String(c.moleFractions[s]), 'fields']));
    expect(t.composition_over_time.header).toEqual(['step', 'particles_Ar', 'particles_He']);
    expect(t.composition_over_time.rows.map((row) => row.map(Number))).toEqual(c.overTime.map((e) => [e.step, ...e.speciesCounts]));
  });

  it('dsmc compare compares the species fields of two seeds like the others', async () => {
    const r = await dsmc(['compare', String(a.runId), String(b.runId), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout.trim().split('\n').pop()!) as Comparison;
    const fields = c.fieldComparisons[0].fields;
    for (const name of ['n_Ar', 'n_He', 'x_Ar', 'x_He'] as const) expect(fields[name]?.compared, name).toBe(64);
    const text = (await dsmc(['compare', String(a.runId), String(b.runId)])).stdout;
    expect(text).toMatch(/\n\s+x_He\s+\d/);
  });

  it('on two rank processes: the same fields (bitwise) and composition as on one', async () => {
    const two = await runMixture(1, ['--ranks', '2']);
    expect(two.ranks).toBe(2);
    expect(two.fieldsSha256).toBe(a.fieldsSha256);
    expect(two.composition!.moleFractions).toEqual(a.composition!.moleFractions);
    expect(two.composition!.from).toBe('fields');
    // the ranks' particles per species at the end add up to the one-rank run's
    expect(two.composition!.overTime.at(-1)).toEqual(a.composition!.overTime.at(-1));
  });
});
