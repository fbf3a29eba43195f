// Finds and reads a case file: a path, or the name of a preset in resources/cases/.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseCaseJson } from '../common/case-errors.js';
import { SHADER_DIR } from '../solver/gpu/shader-source.js';

/** Folder of the bundled presets (next to shaders/ in the install). */
export const PRESET_DIR = join(dirname(SHADER_DIR), 'resources', 'cases');

/** Names of the bundled presets. */
export function presetNames(): string[] {
  return readdirSync(PRESET_DIR).filter((f) => f.endsWith('.json')).map((f) => basename(f, '.json')).sort();
}

/** Reads a case as JSON from a path or preset name; errors say what exists. */
export function readCaseFile(ref: string): unknown {
  const path = existsSync(ref) ? ref : join(PRESET_DIR, ref.endsWith('.json') ? ref : `${ref}.json`);
  if (!existsSync(path)) {
    throw new Error(`case file "${ref}" not found; give a path to a .json case or a preset name: ${presetNames().join(', ')}`);
  }
  // a syntax error becomes a CaseError naming the line, column and fix
  return parseCaseJson(readFileSync(path, 'utf8'));
}
