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

/**
 * The module name that stands for the migrants' stream compaction (emit_migrants): emit-subgroup.wgsl on a device with
 * subgroup operations, emit-workgroup.wgsl (workgroup barriers) otherwise.
 */
export const EMIT_MODULE = 'emit.wgsl';

/** What a device lets the shaders use. */
export interface ShaderOptions {
  subgroups?: boolean;
}

/**
 * Full source of a phase shader: common.wgsl, then each shared module, then the file itself (EMIT_MODULE resolved for
 * the device; a source with subgroup operations starts with their enable directive).
 */
export function shaderSource(file: string, modules: readonly string[] = [], options: ShaderOptions = {}): string {
  const emit = options.subgroups ? 'emit-subgroup.wgsl' : 'emit-workgroup.wgsl';
  const files = ['common.wgsl', ...modules.map((m) => (m === EMIT_MODULE ? emit : m)), file];
  const body = files.map((f) => `// ---- ${f}\n${readShaderFile(f)}`).join('\n');
  // subgroup operations inside emit_migrants' loop, whose exit the subgroup takes together (subgroupMin)
  return files.includes('emit-subgroup.wgsl') ? `enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n${body}` : body;
}
