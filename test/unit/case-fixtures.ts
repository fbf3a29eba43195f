// Shared fixtures for the case-layer tests: the presets on disk and a small valid case to mutate.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Folder of the preset case files. */
export const casesDir = fileURLToPath(new URL('../../resources/cases/', import.meta.url));

// Every preset as [file name, parsed JSON].
export function presets(): [string, any][] {
  return readdirSync(casesDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(casesDir + f, 'utf8'))]);
}

// One preset's JSON by file name.
export function preset(file: string): any {
  return JSON.parse(readFileSync(casesDir + file, 'utf8'));
}

// A minimal valid case (JS object, fresh on every call) that tests mutate.
export function baseCase(): any {
  return {
    name: 'base',
    grid: { cells: [4, 4, 4], cellSize: [1e-3, 1e-3, 1e-3] },
    species: [{ name: 'Ar', mass: 6.63e-26, dRef: 4.17e-10, omega: 0.81, tRef: 273 }],
    particles: { perCell: 20 },
    initial: { numberDensity: 1e21 },
    boundaries: {
      xmin: { type: 'specular' }, xmax: { type: 'specular' },
      ymin: { type: 'specular' }, ymax: { type: 'specular' },
      zmin: { type: 'specular' }, zmax: { type: 'specular' },
    },
    run: { steps: 10, dt: 1e-7 },
  };
}
