// `dsmc resume` checks a body's STL file against the one the run started with (issue 25 item 2): a run killed after
// a checkpoint, its tetrahedron replaced by one twice as large, is refused naming the body and the file (exit 1, the
// run left failed, its checkpoint kept); with the original file put back it resumes to the end. Uses the compiled out/.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dsmc, recorded, runAndKill } from './cli-harness.js';

const DIR = mkdtempSync(join(tmpdir(), 'dsmc-resume-geometry-'));
const DATA = join(DIR, 'data');
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** An ASCII STL of a tetrahedron with edges of `edge` (mm), outward normals. */
function tetStl(edge: number): string {
  const v = [[0, 0, 0], [edge, 0, 0], [0, edge, 0], [0, 0, edge]];
  const faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
  return 'solid tet\n' + faces.map((f) => '  facet normal 0 0 0\n    outer loop\n' +
    f.map((k) => `      vertex ${v[k].join(' ')}\n`).join('') + '    endloop\n  endfacet\n').join('') + 'endsolid tet\n';
}

describe('dsmc resume with a changed STL file', () => {
  it('refuses naming the body and the file, then resumes once the original is back', async () => {
    const stl = join(DIR, 'tet.stl');
    writeFileSync(stl, tetStl(100));
    const c = JSON.parse(readFileSync(new URL('../../resources/cases/sphere-free-molecular.json', import.meta.url), 'utf8'));
    delete c.$schema;
    c.grid = { ...c.grid, cells: [6, 6, 6], cellSize: [0.1, 0.1, 0.1] };
    c.run = { ...c.run, steps: 400, stepsPerSubmit: 5, checkpointEvery: 20 };
    c.sampling.start = 10;
    c.bodies = [{ name: 'tet', shape: { type: 'stl', file: stl, scale: 0.001, translate: [0.2, 0.2, 0.2] }, surface: { model: 'diffuse', temperature: 300 } }];
    const caseFile = join(DIR, 'tet.json');
    writeFileSync(caseFile, JSON.stringify(c));
    const killed = await runAndKill(DATA, ['run', caseFile], 45, { kind: 'orchestrator' });
    expect(killed.killedAtStep, 'the run ended before the kill').not.toBeNull();

    writeFileSync(stl, tetStl(200));
    const refused = await dsmc(DATA, ['resume', String(killed.runId), '--json']);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/bodies\[0\] \("tet"\): the STL file .*tet\.stl changed since the run started/);
    expect(refused.stderr).toMatch(/Put the original file back and resume again/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(recorded(DATA, killed.runId).status).toBe('failed');

    writeFileSync(stl, tetStl(100));
    const resumed = await dsmc(DATA, ['resume', String(killed.runId), '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(recorded(DATA, killed.runId).status).toBe('completed');
  }, 180_000);
});
