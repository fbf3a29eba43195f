// A rank's field planes through a file of the peer folder (field-planes-file.ts): written whole under a temporary name
// then renamed, read back plane by plane into the places the caller gives, the file removed after; a rank that cannot
// write gets null (it sends frames), a file shorter than it says fails with its name.
import { mkdtempSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFieldPlanes, writeFieldPlanes } from '../../src-main/cluster/transport/field-planes-file.js';

const folders: string[] = [];
afterEach(() => { for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true }); });
function folder(): string {
  const f = mkdtempSync(join(tmpdir(), 'planes-'));
  folders.push(f);
  return f;
}

describe('field planes file', () => {
  it('round-trips planes (shared memory too) into the places given, and removes the file', () => {
    const dir = folder();
    const planes = [Float64Array.from([1, 2, 3]), new Float64Array(new SharedArrayBuffer(24)).fill(-0.5), Float64Array.from([NaN, Infinity, 7])];
    const file = writeFieldPlanes(dir, 3, planes)!;
    expect(file.path).toBe(join(dir, 'fields-3.f64'));
    expect(file.bytes).toEqual([24, 24, 24]);
    expect(readdirSync(dir)).toEqual(['fields-3.f64']);
    const global = new Float64Array(10);
    const seen: number[] = [];
    readFieldPlanes(file, (k) => global.subarray(3 * k, 3 * k + 3), (k, plane) => seen.push(k, plane.length));
    expect(Array.from(global)).toEqual([1, 2, 3, -0.5, -0.5, -0.5, NaN, Infinity, 7, 0]);
    expect(seen).toEqual([0, 3, 1, 3, 2, 3]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('gives null where it cannot write, and a read of a short file names it', () => {
    expect(writeFieldPlanes(join(folder(), 'missing'), 0, [new Float64Array(2)])).toBeNull();
    const dir = folder();
    const file = writeFieldPlanes(dir, 1, [new Float64Array(4), new Float64Array(4)])!;
    truncateSync(file.path, 40);
    expect(() => readFieldPlanes(file, () => new Float64Array(4), () => undefined)).toThrow(/fields-1\.f64 ends after 40 bytes; 64 were written/);
  });
});
