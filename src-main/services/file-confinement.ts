// Browser mode confines the files a case names (STL meshes) to the folders the server was given: the data folder and
// the folder `dsmc serve` started in. A path outside them is refused before anything looks at it (no stat, no read),
// so the browser learns nothing about other files: not whether they exist, their size or any byte of them.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { CaseIssue } from '../common/case-errors.js';

/** True when `path` is `root` or inside it (both absolute). */
function within(path: string, root: string): boolean {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/** The real path of a root folder (as given when it does not exist yet). */
function realRoot(root: string): string {
  try {
    return realpathSync(resolve(root));
  } catch {
    return resolve(root);
  }
}

/**
 * Issues for every STL file of a case (as JSON, not yet validated) outside `roots`: its path first as written
 * (resolved against the working folder), then, when it exists, with links followed. Empty when all are inside.
 */
export function confinementIssues(caseJson: unknown, roots: string[]): CaseIssue[] {
  const bodies = (caseJson as { bodies?: unknown } | null)?.bodies;
  if (!Array.isArray(bodies)) return [];
  const real = roots.map(realRoot);
  const issues: CaseIssue[] = [];
  bodies.forEach((b, i) => {
    const file = (b as { shape?: { type?: unknown; file?: unknown } } | null)?.shape?.file;
    if ((b as { shape?: { type?: unknown } })?.shape?.type !== 'stl' || typeof file !== 'string') return;
    const abs = resolve(file);
    let inside = real.some((r) => within(abs, r)) || roots.some((r) => within(abs, resolve(r)));
    if (inside) {
      try {
        inside = real.some((r) => within(realpathSync(abs), r));
      } catch {
        // a file that does not exist inside a root: the check says so itself
      }
    }
    if (!inside) {
      issues.push({ path: `bodies[${i}].shape.file`, message: `in browser mode an STL file must be inside the data folder or the folder dsmc serve started in (${roots.join(', ')}); ` +
        'copy the mesh there and give its path (relative to that folder or absolute)' });
    }
  });
  return issues;
}
