// Finds and reads a case file: a path, or the name of a preset in resources/cases/.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { parseCaseJson } from '../common/case-errors.js';
import { SHADER_DIR } from '../solver/gpu/shader-source.js';
import { readCaseText } from './read-case-text.js';

/** Folder of the bundled presets (next to shaders/ in the install). */
export const PRESET_DIR = join(dirname(SHADER_DIR), 'resources', 'cases');

/** Names of the bundled presets. */
export function presetNames(): string[] {
  return readdirSync(PRESET_DIR).filter((f) => f.endsWith('.json')).map((f) => basename(f, '.json')).sort();
}

/** Reads a case as JSON from a path or preset name; errors say what exists. */
export function readCaseFile(ref: string): unknown {
  const path = existsSync(ref) ? ref : presetPath(ref);
  // a syntax error becomes a CaseError naming the line, column and fix; size, kind and encoding are checked first
  return resolveBodyFiles(parseCaseJson(readCaseText(path)), dirname(path));
}

/** The file of the preset named `ref` (with or without .json); only names in presetNames(), never a path out of the folder. */
function presetPath(ref: string): string {
  const name = ref.endsWith('.json') ? ref.slice(0, -'.json'.length) : ref;
  const names = presetNames();
  if (!names.includes(name)) {
    throw new Error(`case file "${ref}" not found, and it is not a preset name; give a path to a .json case or one of the presets: ${names.join(', ')}`);
  }
  return join(PRESET_DIR, `${name}.json`);
}

/** Makes the STL paths of a case's bodies absolute, relative to the case file's folder (the run keeps the case, not the folder). */
export function resolveBodyFiles(json: unknown, folder: string): unknown {
  const bodies = (json as { bodies?: unknown } | null)?.bodies;
  if (!Array.isArray(bodies)) return json;
  for (const b of bodies) {
    const shape = (b as { shape?: { type?: unknown; file?: unknown } } | null)?.shape;
    if (shape && shape.type === 'stl' && typeof shape.file === 'string' && shape.file.length > 0 && !isAbsolute(shape.file)) {
      shape.file = resolve(folder, shape.file);
    }
  }
  return json;
}
