// Loads WGSL from the top-level shaders/ folder. WGSL has no includes, so a phase shader is
// compiled as common.wgsl + the shared modules it names + its own file.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Finds shaders/ by walking up from this file (works from src-main/ under vitest and from out/). */
function findShaderDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'shaders');
    if (existsSync(join(candidate, 'common.wgsl'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('shaders/common.wgsl not found above ' + fileURLToPath(import.meta.url) + '; the install is incomplete');
}

export const SHADER_DIR = findShaderDir();
const cache = new Map<string, string>();

/** Text of one .wgsl file in shaders/. */
export function readShaderFile(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(join(SHADER_DIR, name), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** WGSL's global directives (enable, requires, diagnostic), which must come before every declaration of a module. */
const DIRECTIVE = /^(enable|requires|diagnostic)\b[^;]*;\s*$/;

/**
 * Full source of a phase shader: common.wgsl, then each shared module, then the file itself; the files' global
 * directives (a module's `enable subgroups;`) go first.
 */
export function shaderSource(file: string, modules: readonly string[] = []): string {
  const directives: string[] = [];
  const bodies = ['common.wgsl', ...modules, file].map((f) => {
    const lines = readShaderFile(f).split('\n').filter((line) => !(DIRECTIVE.test(line) && directives.push(line.trim())));
    return `// ---- ${f}\n${lines.join('\n')}`;
  });
  return [...new Set(directives), ...bodies].join('\n');
}
