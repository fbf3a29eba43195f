// The bundled case presets (resources/cases/*.json, next to shaders/ in the install) for the case editor.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { PresetInfo } from '../common/contract/types.js';
import { SHADER_DIR } from '../solver/gpu/shader-source.js';

/** Folder of the presets. */
const PRESET_DIR = join(dirname(SHADER_DIR), 'resources', 'cases');

/** Every preset with its description and JSON (the $schema key dropped: it points at a file path). */
export function listPresets(): PresetInfo[] {
  return readdirSync(PRESET_DIR).filter((f) => f.endsWith('.json')).sort().map((f) => {
    const { $schema: _schema, ...json } = JSON.parse(readFileSync(join(PRESET_DIR, f), 'utf8')) as Record<string, unknown>;
    return { name: basename(f, '.json'), description: typeof json.description === 'string' ? json.description : '', json };
  });
}
