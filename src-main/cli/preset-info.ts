// What `dsmc presets` shows of each bundled preset: its description and, for the big ones, the command that shrinks
// it to a size a small GPU or a CPU runs (written in the description after "Shrunk for a CPU:").
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRESET_DIR, presetNames } from './case-file.js';

/** One preset: name, description (without the shrink sentence) and its shrink command, if it has one. */
export interface PresetInfo {
  name: string;
  description: string;
  /** `dsmc run NAME --set ...` at a size for a small GPU or a CPU; null when the preset is small already. */
  shrink: string | null;
}

/** The marker in a description that the shrink overrides follow. */
const SHRINK_MARKER = /\s*Shrunk for a CPU:\s*((?:--set \S+\s*)+)\.?\s*$/;

/** Splits a description into its text and the shrink command of preset `name` (null without the marker). */
export function splitShrink(name: string, description: string): { description: string; shrink: string | null } {
  const m = SHRINK_MARKER.exec(description);
  if (!m) return { description: description.trim(), shrink: null };
  return { description: description.slice(0, m.index).trim(), shrink: `dsmc run ${name} ${m[1].trim().replace(/\s+/g, ' ')}` };
}

/** The bundled presets with their descriptions and shrink commands, by name. */
export function presetInfos(): PresetInfo[] {
  return presetNames().map((name) => {
    const json = JSON.parse(readFileSync(join(PRESET_DIR, `${name}.json`), 'utf8')) as { description?: unknown };
    const text = typeof json.description === 'string' ? json.description : '';
    return { name, ...splitShrink(name, text) };
  });
}

/** The shrink command of the preset `ref` names (a preset name, not a path: a file of that name wins, as in readCaseFile), or null. */
export function presetShrink(ref: string): string | null {
  if (existsSync(ref)) return null;
  const name = ref.endsWith('.json') ? ref.slice(0, -'.json'.length) : ref;
  if (!presetNames().includes(name)) return null;
  return presetInfos().find((p) => p.name === name)?.shrink ?? null;
}

/** Wraps text at `width` columns, each line indented by `indent`. */
export function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}
