#!/usr/bin/env node
// Builds the renderer (vite build into out/renderer) unless its build is newer than every file it is made from (the
// renderer, the environment-free code it imports from src-main/common, the vite config and the locked packages), so
// that `npm test` does not rebuild an unchanged renderer (7 s of a 2-core machine). When in doubt it builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = ['src-renderer', 'src-main/common', 'vite.config.ts', 'package-lock.json'];

/** The newest modification time (ms) of a file or of any file below a folder. */
function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), st.mtimeMs);
}

/** Whether out/renderer is missing or older than any of its sources. */
function stale() {
  const built = join(root, 'out/renderer/index.html');
  if (!existsSync(built)) return true;
  const at = statSync(built).mtimeMs;
  return SOURCES.some((s) => existsSync(join(root, s)) && newest(join(root, s)) > at);
}

if (stale()) {
  const r = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
console.log('renderer: out/renderer is up to date (no file of src-renderer, src-main/common or vite.config.ts is newer)');
