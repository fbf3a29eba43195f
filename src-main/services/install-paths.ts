// Where the installed product's files are: the package root, the compiled child entry and bin/dsmc.js
// (works from src-main/ under vitest and from out/ after the build).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding the product's package.json (walking up from this file). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'dsmc-studio') return dir;
    dir = dirname(dir);
  }
  throw new Error(`package.json of dsmc-studio not found above ${fileURLToPath(import.meta.url)}; the install is incomplete`);
}

/** The compiled run child (out/src-main/services/run-child.js); the error says to build first. */
export function runChildEntry(): string {
  const path = join(packageRoot(), 'out', 'src-main', 'services', 'run-child.js');
  if (!existsSync(path)) throw new Error(`${path} is missing; build the product first (npm run build)`);
  return path;
}

/** bin/dsmc.js, the CLI entry a multi-rank launch runs. */
export function cliEntry(): string {
  return join(packageRoot(), 'bin', 'dsmc.js');
}
