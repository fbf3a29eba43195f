// Bodies through the `dsmc` command (compiled out/): a run of the sphere preset records its surfaces (the
// --json summary's per-body loads equal what the stored surface sums give), `dsmc export vtk` writes the
// fields with the cell marks (.vti) and the sphere's triangles with their loads (.vtp) beside them, and bad
// geometry is refused naming the body, with nothing recorded.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCase } from '../../src-main/common/case-schema.js';
import { surfaceSummaryOf } from '../../src-main/common/surface/run-surface-results.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { parseVti, parseVtp } from '../reports/parse-helpers.js';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DIR = mkdtempSync(join(tmpdir(), 'dsmc-bodies-cli-'));
const DATA = join(DIR, 'data');
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** Runs dsmc with args and the temporary data folder; killed after 120 s. */
async function dsmc(args: string[]) {
  const r = await runNode([BIN, ...args, '--data-dir', DATA], { timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The sphere preset, short: 150 steps sampled from step 20, a 2-subdivision sphere (320 triangles). */
const SHORT = ['run.steps=150', 'sampling.start=20', 'bodies.0.shape.subdivisions=2'].flatMap((s) => ['--set', s]);

describe('bodies through dsmc', () => {
  it('records the surfaces of a run and exports them as .vti cell marks and .vtp triangles', async () => {
    const r = await dsmc(['run', 'sphere-free-molecular', ...SHORT, '--json', '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    const summary = JSON.parse(lines[lines.length - 1]);
    const body = summary.surface.bodies[0];
    expect(body).toMatchObject({ name: 'sphere', triangles: 320, referenceArea: 0.0452389 });
    expect(body.cd).toBeGreaterThan(2);
    expect(body.incidentRate).toBeGreaterThan(0);
    const store = RunStore.open({ dataDir: DATA });
    try {
      const surface = store.getSurface(summary.runId)!;
      expect(surface.triangleBody.length).toBe(320);
      expect(surface.bodyNames).toEqual(['sphere']);
      // the stored sums give the summary's loads again
      const again = surfaceSummaryOf(parseCase(store.getCase(summary.runId).json), surface, surface.sums);
      expect(again.bodies[0].cd).toBeCloseTo(body.cd, 12);
      expect(again.bodies[0].force).toEqual(body.force);
    } finally {
      store.close();
    }
    const out = join(DIR, 'sphere.vti');
    const e = await dsmc(['export', 'vtk', String(summary.runId), '--out', out]);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stdout).toContain('sphere.vtp (320 body triangles');
    const vti = parseVti(readFileSync(out, 'utf8'));
    const kinds = vti.cellArrays.cellKind.values;
    expect(kinds.length).toBe(12 ** 3);
    expect(kinds.some((k) => k === 1) && kinds.some((k) => k === 2)).toBe(true);
    const vtp = parseVtp(readFileSync(join(DIR, 'sphere.vtp'), 'utf8'));
    expect(Number(vtp.piece.NumberOfPolys)).toBe(320);
    expect(vtp.cells.pressure.values.length).toBe(320);
    expect(vtp.cells.shear.components).toBe(3);
    expect(Object.keys(vtp.cells)).toEqual(expect.arrayContaining(['body', 'pressure', 'shear', 'heatFlux', 'numberFlux', 'cp', 'cf', 'ch']));
    // the stream comes along +x: the windward (x < 0.3) half carries more pressure than the lee side
    const p = vtp.cells.pressure.values;
    const pts = vtp.points.Points?.values ?? Object.values(vtp.points)[0].values;
    let front = 0, back = 0;
    for (let t = 0; t < 320; t++) {
      const cx = (pts[9 * t] + pts[9 * t + 3] + pts[9 * t + 6]) / 3;
      if (cx < 0.3) front += p[t]; else back += p[t];
    }
    expect(front).toBeGreaterThan(2 * back);
  });

  it('refuses a body outside the box, naming it, and records no run', async () => {
    const file = join(DIR, 'outside.json');
    const c = JSON.parse(readFileSync(new URL('../../resources/cases/sphere-free-molecular.json', import.meta.url), 'utf8'));
    c.bodies[0].shape.center = [0.55, 0.3, 0.3];
    delete c.$schema;
    writeFileSync(file, JSON.stringify(c));
    const r = await dsmc(['run', file, '--no-progress']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/body "sphere" (leaves the box|crosses the inflow face xmax)/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    if (existsSync(join(DATA, 'runs.sqlite'))) {
      const store = RunStore.open({ dataDir: DATA });
      try {
        expect(store.listRuns().filter((x) => x.caseName === 'sphere-free-molecular' && x.status !== 'completed')).toEqual([]);
      } finally {
        store.close();
      }
    }
  });

  it('runs an STL body given in mm (scale, translate) and names the open edge of one that is not closed', async () => {
    // a tetrahedron of 100 mm edges, outward normals (counter-clockwise seen from outside)
    const v = [[0, 0, 0], [100, 0, 0], [0, 100, 0], [0, 0, 100]];
    const faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    const stl = (list: number[][]) => 'solid tet\n' + list.map((f) => '  facet normal 0 0 0\n    outer loop\n' +
      f.map((k) => `      vertex ${v[k].join(' ')}\n`).join('') + '    endloop\n  endfacet\n').join('') + 'endsolid tet\n';
    writeFileSync(join(DIR, 'tet.stl'), stl(faces));
    writeFileSync(join(DIR, 'open.stl'), stl(faces.slice(0, 3)));
    const c = JSON.parse(readFileSync(new URL('../../resources/cases/sphere-free-molecular.json', import.meta.url), 'utf8'));
    delete c.$schema;
    c.run.steps = 60;
    c.sampling.start = 10;
    c.bodies = [{ name: 'tet', shape: { type: 'stl', file: 'tet.stl', scale: 0.001, translate: [0.25, 0.25, 0.25] }, surface: { model: 'specular' } }];
    writeFileSync(join(DIR, 'tet.json'), JSON.stringify(c));
    const r = await dsmc(['run', join(DIR, 'tet.json'), '--json', '--no-progress', '--no-save']);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout.trim().split('\n').pop()!).surface.bodies[0];
    expect(body).toMatchObject({ name: 'tet', triangles: 4 });
    // wetted area of the tetrahedron: three right triangles of 0.1 m legs and one equilateral of 0.1 sqrt(2) m sides
    expect(body.area).toBeCloseTo(3 * 0.005 + (Math.sqrt(3) / 4) * 0.02, 12);
    c.bodies[0].shape.file = 'open.stl';
    writeFileSync(join(DIR, 'open.json'), JSON.stringify(c));
    const bad = await dsmc(['run', join(DIR, 'open.json'), '--no-progress', '--no-save']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/bodies\[0\]\.shape: body "tet": open edge from \(.*\) to \(.*\) \(triangle \d\): the surface is not closed \(watertight\); close it/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});
