// Bounded geometry checks through the real `dsmc check` (issue 25 items 7 and 8): the 64-sphere case of
// subdivisions 7 (21 million triangles), a 2-million-triangle binary STL and a 600 MB ASCII STL are each refused
// within seconds naming the limit (MAX_BODY_TRIANGLES, MAX_ASCII_STL_BYTES) and the fix, never with advice about
// particles or a raw V8 string error. The big files are sparse (truncate), so the test writes almost nothing.
import { mkdtempSync, openSync, closeSync, ftruncateSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DIR = mkdtempSync(join(tmpdir(), 'dsmc-geometry-limits-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** `dsmc check FILE` with its duration. */
async function check(caseFile: string) {
  const t = Date.now();
  const r = await runNode([BIN, 'check', caseFile], { timeout: 120_000, env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? '/tmp' } });
  return { code: r.status, stderr: r.stderr, ms: Date.now() - t };
}

/** The sphere preset with `bodies`, written to DIR/name.json. */
function caseFile(name: string, bodies: unknown[]): string {
  const c = JSON.parse(readFileSync(new URL('../../resources/cases/sphere-free-molecular.json', import.meta.url), 'utf8'));
  delete c.$schema;
  c.bodies = bodies;
  const path = join(DIR, `${name}.json`);
  writeFileSync(path, JSON.stringify(c));
  return path;
}

/** A sparse file of `size` bytes starting with `head`. */
function sparse(path: string, head: Buffer, size: number): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head);
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

describe('geometry over the limits is refused at once', () => {
  it('the 64-sphere case of subdivisions 7', async () => {
    const bodies = [];
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) {
      bodies.push({ name: `s${i}${j}${k}`, shape: { type: 'sphere', center: [0.075 + 0.15 * i, 0.075 + 0.15 * j, 0.075 + 0.15 * k], radius: 0.05, subdivisions: 7 }, surface: { model: 'specular' } });
    }
    const r = await check(caseFile('s64', bodies));
    expect(r.code).toBe(2);
    expect(r.ms).toBeLessThan(10_000);
    expect(r.stderr).toMatch(/bodies: the case's 64 bodies \(largest: "s000" 327680, .*\) have 20971520 triangles; the bodies of a case have at most 500000 triangles in all \(MAX_BODY_TRIANGLES/);
    expect(r.stderr).toMatch(/fewer sphere subdivisions/);
  }, 60_000);

  it('a 2-million-triangle binary STL, before meshing it', async () => {
    const head = Buffer.alloc(84);
    head.writeUInt32LE(2_000_000, 80);
    sparse(join(DIR, 'big.stl'), head, 84 + 50 * 2_000_000);
    const r = await check(caseFile('big', [{ name: 'big', shape: { type: 'stl', file: join(DIR, 'big.stl') }, surface: { model: 'specular' } }]));
    expect(r.code).toBe(2);
    expect(r.ms).toBeLessThan(10_000);
    expect(r.stderr).toMatch(/bodies\[0\]\.shape: body "big": the binary STL has 2000000 triangles; .* at most 500000 .*coarsen or decimate the mesh/);
    expect(r.stderr).not.toMatch(/particle|cells|\n\s+at /);
  }, 60_000);

  it('a 600 MB ASCII STL, before reading it into a string', async () => {
    sparse(join(DIR, 'big-ascii.stl'), Buffer.from('solid big\n  facet normal 0 0 1\n'), 600 * 2 ** 20);
    const r = await check(caseFile('ascii', [{ name: 'text', shape: { type: 'stl', file: join(DIR, 'big-ascii.stl') }, surface: { model: 'specular' } }]));
    expect(r.code).toBe(2);
    expect(r.ms).toBeLessThan(10_000);
    expect(r.stderr).toMatch(/the ASCII STL is 600\.0 MiB \(629145600 bytes\); ASCII STL files are read up to 128 MiB \(MAX_ASCII_STL_BYTES.*save the mesh as binary STL/);
    expect(r.stderr).not.toMatch(/Cannot create a string|\n\s+at /);
  }, 60_000);
});
