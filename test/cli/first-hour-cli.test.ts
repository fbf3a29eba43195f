// A newcomer's first hour on the command line (issue 26): `dsmc help run`, `dsmc presets` with descriptions and
// shrink commands, a preset too big for the adapter pointing to its shrink command, the bodies and the gas's mean
// state in the text of `dsmc run` and `dsmc show`, `dsmc fields` on a body case and on a molecular gas (N2), and
// the stats line of a run whose stderr is a pipe. Uses the compiled out/ (npm test builds it first).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { num } from '../../src-main/cli/format-results.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-first-hour-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

/** Runs dsmc (stdout and stderr are pipes, so never a terminal); killed after 300 s. */
async function dsmc(args: string[]) {
  const r = await runNode([BIN, ...args], { timeout: 300_000, env: { ...process.env, DSMC_DATA_DIR: DATA_DIR } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The JSON object on the last line of stdout. */
function lastJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/** The stored fields of a run. */
function storedFields(id: number) {
  const store = RunStore.open({ dataDir: DATA_DIR });
  try {
    return store.getFields(id)!;
  } finally {
    store.close();
  }
}

/** Parses `dsmc fields` CSV: the comment line, the header and the rows as numbers (empty cells NaN). */
function parseCsv(text: string): { comment: string; header: string[]; rows: number[][] } {
  const [comment, head, ...rest] = text.trim().split('\n');
  return { comment, header: head.split(','), rows: rest.map((l) => l.split(',').map((c) => (c === '' ? NaN : Number(c)))) };
}

describe('help and presets', () => {
  it('dsmc help run prints the run command with its options, not the general help', async () => {
    const r = await dsmc(['help', 'run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: dsmc run CASE/);
    expect(r.stdout).toMatch(/--set path=value\s+\(repeatable\)/);
    expect(r.stdout).toMatch(/--stats-every S\s+\(default 30\)/);
    expect(r.stdout).not.toContain('dsmc - rarefied gas flow simulation');
    expect((await dsmc(['run', '--help'])).stdout).toBe(r.stdout);
    const bad = await dsmc(['help', 'runn']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/unknown command "runn"; commands: run, resume/);
  });

  it('dsmc presets shows each description and the shrink command of the big ones', async () => {
    const list = JSON.parse((await dsmc(['presets', '--json'])).stdout) as { name: string; description: string; shrink: string | null }[];
    expect(list.map((p) => p.name)).toContain('collide-box');
    const text = (await dsmc(['presets'])).stdout;
    for (const p of list) {
      expect(p.description.length).toBeGreaterThan(40);
      expect(text).toMatch(new RegExp(`^${p.name}$`, 'm'));
      // the first words of the description, as wrapped in the text
      expect(text).toContain(p.description.split(' ').slice(0, 4).join(' '));
      if (p.shrink) expect(text).toContain(`      ${p.shrink}\n`);
    }
    const withShrink = list.filter((p) => p.shrink).map((p) => p.name);
    expect(withShrink).toEqual(expect.arrayContaining(['hypersonic-wedge', 'mach-reflection']));
    expect(list.find((p) => p.name === 'collide-box')!.shrink).toBeNull();
    const wedge = list.find((p) => p.name === 'hypersonic-wedge')!;
    expect(wedge.shrink).toMatch(/^dsmc run hypersonic-wedge --set grid\.cells=\[160,80,1\] /);
    expect(wedge.description).not.toContain('Shrunk for a CPU');
  });

  it('a preset too big for this adapter is refused pointing to its shrink command (run and check)', async () => {
    const shrink = (JSON.parse((await dsmc(['presets', '--json'])).stdout) as { name: string; shrink: string | null }[]).find((p) => p.name === 'hypersonic-wedge')!.shrink!;
    const run = await dsmc(['run', 'hypersonic-wedge', '--no-save']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot run on this adapter/);
    expect(run.stderr).toContain(`preset hypersonic-wedge is sized for a large GPU; shrunk, it runs on a small GPU or a CPU:\n  ${shrink}`);
    const check = await dsmc(['check', 'hypersonic-wedge']);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(shrink);
    // a case that fits gets no such line
    expect((await dsmc(['check', 'collide-box'])).stdout).not.toContain('sized for a large GPU');
  });
});

describe('results on the command line', () => {
  it('a body case: run and show list drag, lift, Cd, Cl, heat and the gas means; dsmc fields prints plane, line and point with errors', async () => {
    const args = ['run', 'sphere-free-molecular', '--set', 'run.steps=150', '--set', 'sampling.start=50', '--no-progress'];
    const json = await dsmc([...args, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const s = lastJson(json.stdout) as { runId: number; surface: { bodies: { name: string; drag: number; lift: number; cd: number; cl: number; heatTransfer: number }[] } };
    const text = await dsmc(args);
    expect(text.code, text.stderr).toBe(0);
    // the same case and seed: the same numbers in the text as in the JSON
    const b = s.surface.bodies[0];
    const cells = [b.drag, b.lift, b.cd, b.cl, b.heatTransfer].map((x) => num(x).replace(/[+.]/g, '\\$&'));
    const row = new RegExp(`^\\s+sphere\\s+${cells.join('\\s+')}$`, 'm');
    expect(text.stdout).toMatch(/body\s+drag \(N\)\s+lift \(N\)\s+Cd\s+Cl\s+heat transfer \(W\)/);
    expect(text.stdout).toMatch(row);
    expect(text.stdout).toMatch(/^ {2}n \d\.\d{3}e\+17 \+- \S+ m\^-3; T \d+\.\d \+- \S+ K$/m);
    const id = Number(/saved as run (\d+)/.exec(text.stdout)![1]);
    const show = await dsmc(['show', String(id)]);
    expect(show.stdout).toMatch(row);
    expect(show.stdout).toMatch(/gas \(mean over the \d+ cells holding gas/);
    const shown = JSON.parse((await dsmc(['show', String(id), '--json'])).stdout) as { gas: { n: { mean: number }; T: { mean: number; error: number } } };
    expect(shown.gas.n.mean).toBeGreaterThan(0.9e17);
    expect(shown.gas.T.error).toBeGreaterThan(0);

    const f = storedFields(id);
    const plane = parseCsv((await dsmc(['fields', String(id), '--plane', 'z=6', '--fields', 'n,T'])).stdout);
    expect(plane.header).toEqual(['i', 'j', 'k', 'x', 'y', 'z', 'n', 'n_se', 'T', 'T_se']);
    expect(plane.rows).toHaveLength(12 * 12);
    for (const r of plane.rows) {
      const [i, j, k] = r;
      const id3 = i + 12 * (j + 12 * k);
      expect(k).toBe(6);
      expect(r[5]).toBeCloseTo(0.325, 12);
      expect(r[6]).toBe(f.values.n[id3]);
      expect(r[7]).toBe(f.errors.n[id3]);
      expect(r[8]).toBe(f.values.T[id3]);
    }
    // cells inside the sphere hold no gas
    expect(plane.rows.some((r) => r[6] === 0)).toBe(true);
    const line = parseCsv((await dsmc(['fields', String(id), '--line', 'y=6,z=6'])).stdout);
    expect(line.rows).toHaveLength(12);
    expect(line.rows.map((r) => r[0])).toEqual(Array.from({ length: 12 }, (_, i) => i));
    // --at in metres: x = 0.3 m is in cell 6 of 0.05 m cells
    const point = parseCsv((await dsmc(['fields', String(id), '--at', 'x=0.31,y=0.01,z=0.599', '--fields', 'ux'])).stdout);
    expect(point.rows).toEqual([[6, 0, 11, 0.325, 0.025, 0.575, f.values.ux[6 + 12 * (0 + 12 * 11)], f.errors.ux[6 + 12 * (0 + 12 * 11)]]]);
    const asJson = JSON.parse((await dsmc(['fields', String(id), '--point', 'x=0,y=0,z=0', '--json'])).stdout) as { rows: { values: Record<string, number>; errors: Record<string, number> }[]; fields: { name: string; unit: string }[] };
    expect(asJson.rows[0].values.n).toBe(f.values.n[0]);
    expect(asJson.rows[0].errors.T).toBe(f.errors.T[0]);
    expect(asJson.fields.find((x) => x.name === 'n')!.unit).toBe('m^-3');
    const bad = await dsmc(['fields', String(id), '--plane', 'z=12']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--plane z=12: expected a cell index from 0 to 11/);
    expect((await dsmc(['fields', String(id), '--plane', 'z=1', '--fields', 'Trot'])).stderr).toMatch(/this run has no Trot/);
    const unsampled = await dsmc(['run', 'collide-box', '--set', 'run.steps=3', '--set', 'grid.cells=[4,4,4]', '--set', 'sampling.enabled=false', '--no-progress']);
    const noFields = Number(/saved as run (\d+) in \S+ \(dsmc show \d+\)$/m.exec(unsampled.stdout)![1]);
    expect((await dsmc(['fields', String(noFields), '--plane', 'z=0'])).stderr).toMatch(/run \d+ has no sampled fields: it kept no fields \(sampling.enabled was false\?\); give a completed run/);
  });

  it('a molecular gas (N2): show gives Trot and Tvib, dsmc fields prints them with their errors', async () => {
    const r = await dsmc(['run', 'collide-box', '--set', 'species=[{"use":"N2"}]', '--set', 'grid.cells=[4,4,4]', '--set', 'run.steps=60',
      '--set', 'sampling.start=10', '--set', 'initial.temperature=600', '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/; T \d+\.\d \+- \S+ K, Trot \d+\.\d \+- \S+ K, Tvib \d+(\.\d)? \+- \S+ K$/m);
    expect(r.stdout).not.toMatch(/^bodies/m);
    const id = Number(/saved as run (\d+)/.exec(r.stdout)![1]);
    const f = storedFields(id);
    const out = parseCsv((await dsmc(['fields', String(id), '--line', 'x=1,y=2', '--fields', 'T,Trot,Tvib'])).stdout);
    expect(out.header).toEqual(['i', 'j', 'k', 'x', 'y', 'z', 'T', 'T_se', 'Trot', 'Trot_se', 'Tvib', 'Tvib_se']);
    expect(out.rows).toHaveLength(4);
    for (const row of out.rows) {
      const c = 1 + 4 * (2 + 4 * row[2]);
      expect(row.slice(6)).toEqual([f.values.T[c], f.errors.T[c], f.values.Trot![c], f.errors.Trot![c], f.values.Tvib![c], f.errors.Tvib![c]]);
    }
    expect(out.comment).toMatch(/Trot K, Tvib K/);
  });

  it('through a pipe a long run prints a stats line every --stats-every seconds; --no-progress turns it off', async () => {
    const args = ['run', 'collide-box', '--set', 'grid.cells=[8,8,8]', '--set', 'run.steps=600', '--set', 'run.stepsPerSubmit=10', '--no-save'];
    const r = await dsmc([...args, '--stats-every', '0.2']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('step '));
    expect(lines.length, r.stderr).toBeGreaterThanOrEqual(2);
    let prev = 0;
    for (const l of lines) {
      const m = /^step (\d+)\/600 {2}particles (\d+) {2}collisions\/step (\d+\.\d) {2}T (\d+\.\d) K {2}elapsed \d+ s$/.exec(l);
      expect(m, l).not.toBeNull();
      expect(Number(m![1])).toBeGreaterThan(prev);
      prev = Number(m![1]);
      expect(Number(m![2])).toBe(5120);
      // 5120 argon molecules at 273.15 K in a closed box: about 0.07 collisions per particle per step, T within noise
      expect(Number(m![3]) / 5120).toBeGreaterThan(0.05);
      expect(Math.abs(Number(m![4]) / 273.15 - 1)).toBeLessThan(0.05);
    }
    expect((await dsmc([...args, '--stats-every', '0.2', '--no-progress'])).stderr).not.toMatch(/^step /m);
  });

  it('on two rank processes the stats line has the merged step, particles and collisions, and T left out', async () => {
    const r = await dsmc(['run', 'collide-box', '--set', 'grid.cells=[8,8,8]', '--set', 'run.steps=400', '--set', 'run.stepsPerSubmit=10', '--ranks', '2',
      '--no-save', '--stats-every', '0.2']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('step '));
    expect(lines.length, r.stderr).toBeGreaterThanOrEqual(1);
    for (const l of lines) {
      const m = /^step (\d+)\/400 {2}particles (\d+) {2}collisions\/step (\d+\.\d) {2}T - {2}elapsed \d+ s$/.exec(l);
      expect(m, l).not.toBeNull();
      expect(Number(m![2])).toBe(5120);
      expect(Number(m![3]) / 5120).toBeGreaterThan(0.05);
    }
  });
});
