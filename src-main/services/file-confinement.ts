// Browser mode confines the files a case names (STL meshes) to the folders the server was given: the data folder
// (uploaded meshes go to its meshes/ folder) and the folder `dsmc serve` started in. A path outside them, a name not
// ending in .stl or a path through a hidden folder (.ssh, .git, ...) is refused before anything opens it, with one
// message whatever the file is, so the browser learns nothing about other files: not whether they exist, their size
// or any byte of them.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { CaseIssue } from '../common/case-errors.js';

/** The path of `path` relative to `root` when it is `root` or inside it (both absolute); null otherwise. */
function inside(path: string, root: string): string | null {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r)) ? r : null;
}

/** The real path of `path`: links followed in its nearest existing ancestor, the missing rest appended as written. */
function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPathOf(parent), basename(path));
  }
}

/** True when `path` lies in one of `roots` (real paths) through no hidden folder and names an .stl file. */
function allowedIn(path: string, roots: string[]): boolean {
  if (!/\.stl$/i.test(path)) return false;
  return roots.some((root) => {
    const r = inside(path, root);
    return r !== null && r !== '' && !r.split(/[\\/]/).some((part) => part.startsWith('.'));
  });
}

/** The one message of every refused file (the same whether it exists or not, whatever it holds). */
export function confinementMessage(roots: string[]): string {
  return `in browser mode an STL file must be inside the data folder or the folder dsmc serve started in (${roots.join(', ')}), ` +
    'with a name ending in .stl and no hidden folder (.name) on its path; upload the mesh (it goes to the data folder\'s meshes/ folder) ' +
    'or copy it there and give its path (absolute, or relative to the folder dsmc serve started in)';
}

/** True when the file at `file` (resolved against the working folder) may be read in browser mode: as written and with links followed. */
export function fileAllowed(file: string, roots: string[]): boolean {
  const abs = resolve(file);
  const realRoots = roots.map((r) => realPathOf(resolve(r)));
  const asWritten = allowedIn(abs, roots.map((r) => resolve(r))) || allowedIn(abs, realRoots);
  return asWritten && allowedIn(realPathOf(abs), realRoots);
}

/**
 * Issues for every STL file of a case (as JSON, not yet validated) that browser mode may not read (see fileAllowed),
 * at `bodies[i].shape.file`. Empty when all are allowed.
 */
export function confinementIssues(caseJson: unknown, roots: string[]): CaseIssue[] {
  const bodies = (caseJson as { bodies?: unknown } | null)?.bodies;
  if (!Array.isArray(bodies)) return [];
  const issues: CaseIssue[] = [];
  bodies.forEach((b, i) => {
    const shape = (b as { shape?: { type?: unknown; file?: unknown } } | null)?.shape;
    if (shape?.type !== 'stl' || typeof shape.file !== 'string') return;
    if (!fileAllowed(shape.file, roots)) issues.push({ path: `bodies[${i}].shape.file`, message: confinementMessage(roots) });
  });
  return issues;
}
