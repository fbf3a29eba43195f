// `dsmc report profile`, `dsmc export vtk` and `dsmc compare` end to end on runs recorded by `dsmc run`
// into a temporary data folder (tiny cases on the default adapter): the exported numbers agree with the
// database, the VTK file reads back, and compare tells DSMC noise (another seed) from a real change
// (another wall temperature). Uses the compiled out/ (`npm run build` first; `npm test` does it).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_NAMES } from '../../src-main/common/field-names.js';
import type { Comparison } from '../../src-main/common/reports/compare-model.js';
import type { ProfileReport } from '../../src-main/common/reports/profile-model.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { csvSections, htmlKeyedValues, htmlPhaseRow, parseCsv, parseVti, readZip } from '../reports/parse-helpers.js';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DIR = mkdtempSync(join(tmpdir(), 'dsmc-report-cli-'));
const DATA = join(DIR, 'data');

/** Runs dsmc with args and the temporary data folder; killed after 120 s. */
async function dsmc(args: string[]) {
  const r = await runNode([BIN, ...args, '--data-dir', DATA], { timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a case and returns its run id (from the --json summary's runId). */
async function runCase(preset: string, sets: string[]): Promise<number> {
  const r = await dsmc(['run', preset, ...sets.flatMap((s) => ['--set', s]), '--json', '--no-progress']);
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.trim().split('\n');
  const id = JSON.parse(lines[lines.length - 1]).runId;
  expect(Number.isInteger(id), `runId in ${lines[lines.length - 1].slice(0, 200)}`).toBe(true);
  return id;
}

/** 200 steps in 20 submits, so the fields' standard errors come from 20 batch-means blocks. */
const BOX = ['grid.cells=[6,6,6]', 'run.steps=200', 'run.stepsPerSubmit=10'];
/** Couette flow shrunk to 4x10x1 cells; sampling after 100 steps, 20 blocks. */
const COUETTE = ['grid.cells=[4,10,1]', 'run.steps=400', 'run.stepsPerSubmit=15', 'sampling.start=100'];

let boxA = 0, boxB = 0, couetteCold = 0, couetteHot = 0, noFields = 0;
let store: RunStore;

beforeAll(async () => {
  boxA = await runCase('collide-box', [...BOX, 'run.seed=2']);
  boxB = await runCase('collide-box', [...BOX, 'run.seed=3']);
  couetteCold = await runCase('couette', COUETTE);
  couetteHot = await runCase('couette', [...COUETTE, 'boundaries.ymin.temperature=500', 'boundaries.ymax.temperature=500']);
  noFields = await runCase('collide-box', ['grid.cells=[4,4,4]', 'run.steps=4', 'sampling.enabled=false']);
  store = RunStore.open({ dataDir: DATA });
});

afterAll(() => {
  store?.close();
  rmSync(DIR, { recursive: true, force: true });
});

/** The comparison of runs as `dsmc compare --json` prints it. */
async function compare(ids: number[]): Promise<Comparison> {
  const r = await dsmc(['compare', ...ids.map(String), '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

describe('dsmc compare', () => {
  it('finds the same case with another seed within DSMC noise', async () => {
    const c = await compare([boxA, boxB]);
    expect(c.caseDifferences).toEqual([{ path: 'run.seed', values: [2, 3] }]);
    expect(c.throughput.values.every((v) => v !== null && v > 0)).toBe(true);
    expect(c.phases.map((p) => p.phase)).toContain('collide');
    const fields = c.fieldComparisons[0].fields;
    const fractions = FIELD_NAMES.map((n) => fields[n]!.fractionAbove!);
    expect(FIELD_NAMES.map((n) => fields[n]!.compared)).toEqual(FIELD_NAMES.map(() => 216));
    expect(fractions.filter((f) => f < 0.05).length, JSON.stringify(fractions)).toBeGreaterThanOrEqual(FIELD_NAMES.length - 2);
    expect(Math.max(...fractions), JSON.stringify(fractions)).toBeLessThan(0.15);
  });

  it('finds a changed wall temperature far above the noise', async () => {
    const c = await compare([couetteCold, couetteHot]);
    expect(c.caseDifferences.map((d) => d.path).sort()).toEqual(['boundaries.ymax.temperature', 'boundaries.ymin.temperature']);
    const t = c.fieldComparisons[0].fields.T!;
    expect(t.maxAbsZ!).toBeGreaterThan(10);
    expect(t.fractionAbove!).toBeGreaterThan(0.5);
    expect(t.differs).toBe(true);
  });

  it('prints a readable table and refuses a single run', async () => {
    const r = await dsmc(['compare', String(boxA), String(boxB)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/case differences \(1 path\)/);
    expect(r.stdout).toMatch(/particle-steps\/s/);
    expect(r.stdout).toMatch(/\n\s+T\s+\d/);
    const one = await dsmc(['compare', String(boxA)]);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain('two or more run ids');
    expect(one.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('dsmc report profile', () => {
  it('writes html, csv, json and pdf whose numbers agree with the database', async () => {
    for (const f of ['html', 'csv', 'json', 'pdf']) {
      const r = await dsmc(['report', 'profile', String(boxA), '--format', f, '--out', join(DIR, `profile.${f}`)]);
      expect(r.code, r.stderr).toBe(0);
    }
    const run = store.getRun(boxA);
    const phases = store.getPhases(boxA);
    const s = run.summary!;
    const json = JSON.parse(readFileSync(join(DIR, 'profile.json'), 'utf8')) as ProfileReport;
    expect(json.run.id).toBe(boxA);
    expect(json.throughput.particleStepsPerSecond).toBe(s.particleStepsPerSecond);
    expect(json.throughput.collisionsPerParticleStep).toBe(s.collisionsPerParticleStep);
    expect(json.steps).toEqual(store.getSteps(boxA));
    const collide = phases.find((p) => p.phase === 'collide')!;
    expect(json.phaseTable.rows.find((p) => p.phase === 'collide')!.avgSeconds).toBe(collide.totalSeconds);

    const html = readFileSync(join(DIR, 'profile.html'), 'utf8');
    expect(Number(htmlKeyedValues(html).particleStepsPerSecond)).toBe(s.particleStepsPerSecond);
    expect(Number(htmlPhaseRow(html, 'collide')[4])).toBe(collide.totalSeconds);
    expect(html).toMatch(/<svg[\s>]/);
    expect(html.replace(/xmlns(:\w+)?="http:\/\/www\.w3\.org\/[^"]*"/g, '')).not.toMatch(/https?:\/\/|\bsrc\s*=/i);

    const csv = csvSections(readFileSync(join(DIR, 'profile.csv'), 'utf8'));
    const m = Object.fromEntries(csv.metrics.rows);
    expect(Number(m.particle_steps_per_second)).toBe(s.particleStepsPerSecond);
    expect(Number(csv.phases.rows.find((r) => r[0] === 'collide')![4])).toBe(collide.totalSeconds);
    expect(csv.steps.rows.length).toBe(store.getSteps(boxA).length);

    expect(readFileSync(join(DIR, 'profile.pdf')).subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(readdirSync(DIR).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writes one CSV file per table into FILE.zip (the extension chooses the format), the field plane included', async () => {
    const r = await dsmc(['report', 'profile', String(boxA), '--out', join(DIR, 'tables.zip')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('(zip profile of run');
    const files = Object.fromEntries(readZip(readFileSync(join(DIR, 'tables.zip'))).map((f) => [f.name, parseCsv(f.text)]));
    expect(Object.keys(files).slice(0, 4)).toEqual(['metrics.csv', 'phases.csv', 'steps.csv', 'totals.csv']);
    expect(Object.keys(files)).toContain('field_plane.csv');
    expect(Object.keys(files)).not.toContain('surface_triangles.csv'); // no bodies
    const m = Object.fromEntries(files['metrics.csv'].slice(1));
    expect(Number(m.particle_steps_per_second)).toBe(store.getRun(boxA).summary!.particleStepsPerSecond);
    const fields = store.getFields(boxA)!;
    const [head, ...rows] = files['field_plane.csv'];
    // the plane normal to z (the axis with the fewest cells, z on a tie) through the middle layer, one row per cell
    expect(rows.length).toBe(fields.cells[0] * fields.cells[1]);
    const k = Math.floor(fields.cells[2] / 2);
    const [i, j] = [1, 2];
    const row = rows.find((x) => Number(x[0]) === i && Number(x[1]) === j)!;
    expect(Number(row[head.indexOf('n_m-3')])).toBe(fields.values.n[i + fields.cells[0] * (j + fields.cells[1] * k)]);
  });

  it('names what is wrong with the arguments', async () => {
    const noOut = await dsmc(['report', 'profile', String(boxA)]);
    expect(noOut.code).toBe(1);
    expect(noOut.stderr).toContain('--out FILE is required');
    const badFormat = await dsmc(['report', 'profile', String(boxA), '--format', 'docx', '--out', join(DIR, 'x')]);
    expect(badFormat.stderr).toContain('expected one of html, csv, json, pdf');
    const missing = await dsmc(['report', 'profile', '9999', '--out', join(DIR, 'x.html')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/run 9999 not found/);
  });
});

describe('dsmc export vtk', () => {
  it('writes the stored fields and errors as ImageData that reads back', async () => {
    const out = join(DIR, 'box.vti');
    const r = await dsmc(['export', 'vtk', String(boxA), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const v = parseVti(readFileSync(out, 'utf8'));
    const f = store.getFields(boxA)!;
    expect(v.wholeExtent).toEqual([0, 6, 0, 6, 0, 6]);
    expect(v.spacing).toEqual(f.cellSize);
    for (const name of FIELD_NAMES) {
      expect(v.cellArrays[name].values, name).toEqual(f.values[name]);
      expect(v.cellArrays[`${name}_stderr`].values, name).toEqual(f.errors[name]);
    }
  });

  it('says why a run without sampled fields cannot be exported', async () => {
    const r = await dsmc(['export', 'vtk', String(noFields), '--out', join(DIR, 'none.vti')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/has no sampled fields/);
  });
});
