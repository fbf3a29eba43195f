// The STL files a run's bodies were meshed from, recorded beside its checkpoints (<run folder>/bodies.json: per STL
// body its name, file and the SHA-256 of the file's bytes) when the run starts, and compared on `dsmc resume`: a
// checkpoint holds particles placed around the old geometry, so a changed mesh must not be resumed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Case } from '../../common/case-schema.js';
import { readStlFile } from '../stl-file.js';
import { writeFileDurable } from './atomic-file.js';

/** File of the run folder that records the bodies' STL files. */
export const BODY_FILES = 'bodies.json';

const recordSchema = z.object({
  format: z.literal(1),
  bodies: z.array(z.object({ index: z.number().int().min(0), name: z.string(), file: z.string(), bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});
export type BodyFileRecord = z.infer<typeof recordSchema>['bodies'][number];

/** SHA-256 and size of every STL body's file of a case (other shapes are part of the case text, hashed with it). */
export function bodyFileHashes(c: Case): BodyFileRecord[] {
  const out: BodyFileRecord[] = [];
  c.bodies.forEach((b, index) => {
    if (b.shape.type !== 'stl') return;
    const bytes = readStlFile(b.shape.file);
    out.push({ index, name: b.name, file: b.shape.file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  });
  return out;
}

/** Records the STL files of the case's bodies in the run's checkpoint folder (nothing when it has no STL body). */
export function recordBodyFiles(runFolder: string, c: Case): void {
  const bodies = bodyFileHashes(c);
  if (bodies.length === 0) return;
  mkdirSync(runFolder, { recursive: true });
  writeFileDurable(join(runFolder, BODY_FILES), Buffer.from(JSON.stringify({ format: 1, bodies }, null, 2) + '\n'));
}

/**
 * Throws, naming the body, its file and the fix, when an STL file of the case differs from the one recorded when the
 * run started (or cannot be read now). A run folder without the record (a run started by an older dsmc) is reported to
 * `onUnchecked` and not refused.
 */
export function checkBodyFiles(runFolder: string, c: Case, onUnchecked: (why: string) => void): void {
  if (!c.bodies.some((b) => b.shape.type === 'stl')) return;
  const path = join(runFolder, BODY_FILES);
  if (!existsSync(path)) {
    onUnchecked(`the run's STL files were not recorded when it started (${path} is missing: an older dsmc); make sure they are unchanged`);
    return;
  }
  const parsed = recordSchema.safeParse((() => { try { return JSON.parse(readFileSync(path, 'utf8')); } catch { return null; } })());
  if (!parsed.success) throw new Error(`${path} is damaged (it records the run's STL files); the geometry cannot be checked, so the run is not resumed: run the case again (dsmc run)`);
  for (const rec of parsed.data.bodies) {
    const b = c.bodies[rec.index];
    const where = `bodies[${rec.index}] ("${rec.name}")`;
    if (!b || b.shape.type !== 'stl' || b.shape.file !== rec.file) throw new Error(`${where}: the recorded STL file ${rec.file} is not the case's; the run cannot be resumed: run the case again (dsmc run)`);
    let now: Buffer;
    try {
      now = Buffer.from(readStlFile(rec.file));
    } catch (e) {
      throw new Error(`${where}: cannot read the STL file ${rec.file} (${(e as Error).message}); resume needs the same file the run started with: put it back and resume again`);
    }
    const sha = createHash('sha256').update(now).digest('hex');
    if (sha !== rec.sha256) {
      throw new Error(`${where}: the STL file ${rec.file} changed since the run started (${rec.bytes} bytes, SHA-256 ${rec.sha256.slice(0, 16)}...; now ${now.length} bytes, ` +
        `${sha.slice(0, 16)}...); the checkpoint's particles belong to the old geometry, so the run is not resumed. Put the original file back and resume again, ` +
        'or run the case again with the new geometry (dsmc run)');
    }
  }
}
