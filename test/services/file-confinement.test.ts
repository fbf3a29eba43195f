// Browser mode's confinement of the files a case names (issue 25 item 16), at the service level: STL paths only inside
// the data folder or the server's folder, named *.stl, through no hidden folder and no link leading out; one message for
// every refused file (nothing about its existence, size or bytes); uploadMesh puts a checked mesh where browser mode
// may read it; resumeRun of a recorded case naming a file outside is refused. Needs the compiled out/ (the check's worker).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shapeSchema } from '../../src-main/common/body-schema.js';
import { dispatch } from '../../src-main/common/contract/contract.js';
import { tessellateShape } from '../../src-main/common/geometry/index.js';
import { confinementIssues } from '../../src-main/services/file-confinement.js';
import { StudioService } from '../../src-main/services/studio-service.js';

const top = mkdtempSync(join(tmpdir(), 'dsmc-confine-'));
const DATA = join(top, 'data');
const SERVER = join(top, 'project');
const OUTSIDE = join(top, 'outside');
let service: StudioService;

/** ASCII STL text of a cube from `lo` to `hi` (m) on every axis. */
function cubeStl(lo: number, hi: number): string {
  const tris = tessellateShape(shapeSchema.parse({ type: 'box', min: [lo, lo, lo], max: [hi, hi, hi] }), [1, 1, 1]);
  let s = 'solid cube\n';
  for (let t = 0; t < tris.length / 9; t++) {
    s += 'facet normal 0 0 0\nouter loop\n';
    for (let v = 0; v < 3; v++) s += `vertex ${tris[9 * t + 3 * v]} ${tris[9 * t + 3 * v + 1]} ${tris[9 * t + 3 * v + 2]}\n`;
    s += 'endloop\nendfacet\n';
  }
  return `${s}endsolid cube\n`;
}

/** The sphere preset with one STL body naming `file`. */
function stlCase(file: string): Record<string, unknown> {
  const c = JSON.parse(readFileSync(new URL('../../resources/cases/sphere-free-molecular.json', import.meta.url), 'utf8'));
  delete c.$schema;
  c.bodies = [{ name: 'mesh', shape: { type: 'stl', file }, surface: { model: 'specular' } }];
  return c;
}

beforeAll(() => {
  for (const d of [DATA, SERVER, OUTSIDE, join(SERVER, '.ssh'), join(SERVER, 'meshes')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(OUTSIDE, 'secret.stl'), 'SECRET-BYTES '.repeat(20));
  writeFileSync(join(SERVER, '.ssh', 'id.stl'), 'SECRET-KEY '.repeat(20));
  writeFileSync(join(SERVER, 'notes.txt'), 'SECRET-NOTES '.repeat(20));
  writeFileSync(join(SERVER, 'meshes', 'cube.stl'), cubeStl(0.25, 0.35));
  symlinkSync(join(OUTSIDE, 'secret.stl'), join(SERVER, 'link.stl'));
  symlinkSync(OUTSIDE, join(SERVER, 'elsewhere'));
  service = new StudioService({ dataDir: DATA, confineFiles: true, serverDir: SERVER });
});

afterAll(async () => {
  await service?.close();
  rmSync(top, { recursive: true, force: true });
});

describe('confinementIssues', () => {
  const roots = [DATA, SERVER];
  const issueOf = (file: string) => confinementIssues(stlCase(file), roots);

  it('allows .stl files inside the data folder or the server folder, by absolute or relative path', () => {
    expect(issueOf(join(SERVER, 'meshes', 'cube.stl'))).toEqual([]);
    expect(issueOf(join(DATA, 'meshes', 'not-yet-there.stl'))).toEqual([]);
    expect(confinementIssues(stlCase('cube.stl'), roots.map((r) => join(r, 'meshes')).concat(SERVER)).length).toBe(1); // relative to the working folder, not a root
  });

  it('refuses, with one message at bodies[0].shape.file, files outside, not named .stl, in hidden folders or reached through links', () => {
    const refused = [
      join(OUTSIDE, 'secret.stl'), join(OUTSIDE, 'missing.stl'), '/etc/passwd', join(SERVER, '..', 'outside', 'secret.stl'),
      join(SERVER, 'notes.txt'), join(DATA, 'runs.sqlite'), join(SERVER, '.ssh', 'id.stl'), join(SERVER, 'link.stl'),
      join(SERVER, 'elsewhere', 'secret.stl'), join(SERVER, 'elsewhere', 'missing.stl'), SERVER,
    ];
    const messages = new Set<string>();
    for (const file of refused) {
      const issues = issueOf(file);
      expect(issues, file).toHaveLength(1);
      expect(issues[0].path).toBe('bodies[0].shape.file');
      messages.add(issues[0].message);
    }
    expect(messages.size).toBe(1);
    expect([...messages][0]).toMatch(/must be inside the data folder or the folder dsmc serve started in .*ending in \.stl.*upload the mesh/);
  });
});

describe('StudioService in browser mode', () => {
  it('checkCase of a file inside the folders but not an STL says nothing of its bytes or size', async () => {
    for (const file of [join(DATA, 'runs.sqlite'), join(SERVER, 'notes.txt'), join(SERVER, 'link.stl'), join(SERVER, 'elsewhere', 'secret.stl')]) {
      const check = await service.checkCase({ caseJson: stlCase(file) });
      expect(check.ok, file).toBe(false);
      expect(check.issues.map((i) => i.path)).toEqual(['bodies[0].shape.file']);
      expect(JSON.stringify(check)).not.toMatch(/SECRET|triangle|bytes|SQLite|exist/);
    }
  });

  it('uploadMesh stores a checked mesh in DATA/meshes, which checkCase then reads', async () => {
    const up = await dispatch(service, 'uploadMesh', { name: 'cube.stl', contentBase64: Buffer.from(cubeStl(0.25, 0.35)).toString('base64') }) as { file: string; triangles: number };
    expect(up).toEqual({ file: join(DATA, 'meshes', 'cube.stl'), triangles: 12 });
    const check = await service.checkCase({ caseJson: stlCase(up.file) });
    expect(check.issues).toEqual([]);
    expect(check.ok).toBe(true);
    // the same bytes again: the same file; other bytes under that name: refused (runs may use it)
    await expect(dispatch(service, 'uploadMesh', { name: 'cube.stl', contentBase64: Buffer.from(cubeStl(0.25, 0.35)).toString('base64') })).resolves.toEqual(up);
    await expect(dispatch(service, 'uploadMesh', { name: 'cube.stl', contentBase64: Buffer.from(cubeStl(0.2, 0.3)).toString('base64') }))
      .rejects.toThrow('name: another mesh named cube.stl was uploaded before (runs may use it); choose another name');
  });

  it('uploadMesh refuses names with folders, non-STL bytes and oversize meshes, naming the field', async () => {
    const ok = Buffer.from(cubeStl(0.25, 0.35)).toString('base64');
    for (const name of ['../x.stl', 'a/b.stl', '.hidden.stl', 'x.txt', 'x.stl/', '']) {
      await expect(dispatch(service, 'uploadMesh', { name, contentBase64: ok }), name).rejects.toThrow(/uploadMesh: name: /);
    }
    await expect(dispatch(service, 'uploadMesh', { name: 'junk.stl', contentBase64: Buffer.from('hello world').toString('base64') }))
      .rejects.toThrow(/contentBase64: junk\.stl is not a readable STL mesh: not an STL file/);
    await expect(dispatch(service, 'uploadMesh', { name: 'junk.stl', contentBase64: 'not base64!' })).rejects.toThrow(/contentBase64: expected the STL file's bytes as base64/);
    await expect(dispatch(service, 'uploadMesh', { name: 'big.stl', contentBase64: 'A'.repeat(4 * 1024 * 1024) })).rejects.toThrow(/contentBase64: a mesh of at most 2621440 bytes/);
  });

  it('resumeRun of a recorded case whose STL lies outside the folders is refused naming the file field', async () => {
    const runId = service.store.createRun({
      project: 'p', caseName: 'outside', caseJson: stlCase(join(OUTSIDE, 'secret.stl')), seed: 1, ranks: 1, gpus: 1,
      adapter: { description: 'test', backend: 'test' }, productVersion: 'test',
    });
    service.store.finishRun(runId, 'failed', 'test');
    await expect(service.resumeRun({ runId })).rejects.toThrow(/bodies\[0\]\.shape\.file: in browser mode an STL file must be inside/);
  });
});
