// The product version (package.json's "version"), recorded with every saved run.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SHADER_DIR } from '../solver/gpu/shader-source.js';

let cached: string | undefined;

/** The version in the install's package.json (next to shaders/), read once. */
export function productVersion(): string {
  if (cached === undefined) {
    const path = join(dirname(SHADER_DIR), 'package.json');
    const version = (JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown }).version;
    if (typeof version !== 'string') throw new Error(`${path} has no "version"; the install is incomplete`);
    cached = version;
  }
  return cached;
}
