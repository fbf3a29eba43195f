// The TypeScript struct layouts and shared constants (src-main/solver/gpu/struct-layouts.ts) against
// the WGSL they describe, parsed from shaders/*.wgsl: names, field order, types and values.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ALL_LAYOUTS, ARRIVALS_HEADER_WORDS, BOUNDARY_CODES, CELL_WORD, CTL, HALO_WORK, MIGRANT_WORDS, PARTIAL_WORDS, REACTION_WORDS, SAMPLE_MOMENTS, STATS, SURFACE_MODEL_CODES,
  UNIFORM_TABLES,
} from '../../src-main/solver/gpu/struct-layouts.js';
import { FACE_COPIES, SURFACE_Q } from '../../src-main/common/surface-layout.js';
import { MAX_BODIES } from '../../src-main/common/body-schema.js';
import { PARTICLE_ATTRIBUTES, SORT_SCRATCH } from '../../src-main/solver/particle-attributes.js';
import { MAX_RANKS } from '../../src-main/solver/subdomain.js';

const shaderDir = fileURLToPath(new URL('../../shaders/', import.meta.url));

// Text of a shader file with // comments removed.
function wgsl(file: string): string {
  return readFileSync(shaderDir + file, 'utf8').replace(/\/\/[^\n]*/g, '');
}

// Every `struct Name { field: type, ... }` of a WGSL text, as name -> [[field, type], ...].
function parseStructs(text: string): Map<string, [string, string][]> {
  const out = new Map<string, [string, string][]>();
  for (const m of text.matchAll(/struct\s+(\w+)\s*\{([^}]*)\}/g)) {
    const fields = m[2].split(/,(?![^<]*>)/).map((f) => f.trim()).filter((f) => f.length > 0)
      .map((f) => {
        const fm = /^(\w+)\s*:\s*([\w<>, ]+)$/.exec(f);
        if (!fm) throw new Error(`cannot parse field "${f}" of struct ${m[1]}`);
        return [fm[1], fm[2].trim()] as [string, string];
      });
    out.set(m[1], fields);
  }
  return out;
}

// Every `const NAME: u32 = <n>u;` of a WGSL text, as NAME -> n.
function parseU32Consts(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/const\s+(\w+)\s*:\s*u32\s*=\s*(0x[0-9a-fA-F]+|\d+)u\s*;/g)) out.set(m[1], Number(m[2]));
  return out;
}

const structs = new Map([...parseStructs(wgsl('common.wgsl')), ...parseStructs(wgsl('scan.wgsl'))]);
const consts = parseU32Consts(wgsl('common.wgsl'));

// WGSL constants whose names start with prefix, keyed by the rest of the name.
function constsWithPrefix(prefix: string): Record<string, number> {
  return Object.fromEntries([...consts].filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));
}

describe('struct layouts', () => {
  it('parses the shared structs of common.wgsl and scan.wgsl', () => {
    expect([...structs.keys()].sort()).toEqual(ALL_LAYOUTS.map((l) => l.name).sort());
  });

  for (const layout of ALL_LAYOUTS) {
    it(`${layout.name} matches its WGSL struct field by field`, () => {
      expect(structs.get(layout.name)).toEqual(layout.fields.map(([name, type]) => [name, type]));
      expect(layout.byteSize).toBe(4 * layout.fields.length);
    });
  }
});

describe('shared constants', () => {
  it('BC_* equal BOUNDARY_CODES', () => {
    const ts = Object.fromEntries(Object.entries(BOUNDARY_CODES).map(([k, v]) => [k.toUpperCase(), v]));
    expect(constsWithPrefix('BC_')).toEqual(ts);
  });

  it('CTL_* equal CTL', () => {
    expect(constsWithPrefix('CTL_')).toEqual({ ...CTL });
  });

  it('CELL_BITS and CELL_MASK equal CELL_WORD', () => {
    expect({ BITS: consts.get('CELL_BITS'), MASK: consts.get('CELL_MASK') }).toEqual({ ...CELL_WORD });
  });

  it('ST_* and STATS_WORDS equal STATS', () => {
    expect({ ...constsWithPrefix('ST_'), WORDS: consts.get('STATS_WORDS') }).toEqual({ ...STATS });
  });

  it('RX_* equal REACTION_WORDS (the step tallies and the submit tallies hold RX_MAX_REACTIONS each)', () => {
    expect(constsWithPrefix('RX_')).toEqual({ ...REACTION_WORDS });
    expect(REACTION_WORDS.RUN_TALLY).toBe(REACTION_WORDS.STEP_TALLY + REACTION_WORDS.MAX_REACTIONS);
    expect(REACTION_WORDS.WORDS).toBe(REACTION_WORDS.RUN_TALLY + REACTION_WORDS.MAX_REACTIONS);
  });

  it('HW_* equal HALO_WORK', () => {
    expect(constsWithPrefix('HW_')).toEqual({ ...HALO_WORK });
  });

  it('every u32 constant of common.wgsl is one of the groups above or shader-only', () => {
    // a new group (e.g. indirect-dispatch ARGS_* words) needs its TypeScript twin and a check here
    const known = /^(MAX_SPECIES$|MAX_SURFACE_MODELS$|BC_|CTL_|HW_|RX_|ST_|STATS_WORDS$|STREAM_|INVALID_CELL$|CELL_BITS$|CELL_MASK$|MIGRANT_INTERNAL$|ARRIVALS_HEADER$|INJECTED_KEY$)/;
    expect([...consts.keys()].filter((k) => !known.test(k))).toEqual([]);
  });

  it('the uniform tables\' lengths (MAX_SPECIES, MAX_SURFACE_MODELS) hold the schema\'s most species and bodies', () => {
    expect({ MAX_SPECIES: consts.get('MAX_SPECIES'), MAX_SURFACE_MODELS: consts.get('MAX_SURFACE_MODELS') }).toEqual({ ...UNIFORM_TABLES });
    expect(UNIFORM_TABLES.MAX_SURFACE_MODELS).toBe(MAX_BODIES + 6);
    expect(UNIFORM_TABLES.MAX_SPECIES).toBeGreaterThanOrEqual(16);
    // body.wgsl's surfSpecies array: one entry per (surface model, species)
    expect(/surfSpecies: array<SurfaceSpecies, (\d+)>/.exec(wgsl('body.wgsl'))?.[1]).toBe(String(UNIFORM_TABLES.MAX_SURFACE_MODELS * UNIFORM_TABLES.MAX_SPECIES));
  });

  it('body.wgsl\'s surface sums layout (SURF_Q, FACE_COPIES) and model kinds equal surface-layout.ts and SURFACE_MODEL_CODES', () => {
    const body = parseU32Consts(wgsl('body.wgsl'));
    expect({ SURF_Q: body.get('SURF_Q'), FACE_COPIES: body.get('FACE_COPIES') }).toEqual({ SURF_Q: SURFACE_Q, FACE_COPIES });
    const kinds = Object.fromEntries([...body].filter(([k]) => k.startsWith('SURF_') && k !== 'SURF_Q').map(([k, v]) => [k.slice(5).toLowerCase(), v]));
    expect(kinds).toEqual({ ...SURFACE_MODEL_CODES });
  });

  it('MIGRANT_WORDS (an override: 9 + the internal words with rotation) defaults to its TypeScript twin, the internal words follow it, MAX_RANKS in move.wgsl equals the subdomain limit', () => {
    const override = /override\s+MIGRANT_WORDS\s*:\s*u32\s*=\s*(\d+)u\s*;/.exec(wgsl('common.wgsl'));
    expect(Number(override?.[1])).toBe(MIGRANT_WORDS);
    expect(consts.get('MIGRANT_INTERNAL')).toBe(MIGRANT_WORDS);
    // the arrivals buffer's header (the count, then padding) before the records: both sides alike, 16 bytes
    expect(consts.get('ARRIVALS_HEADER')).toBe(ARRIVALS_HEADER_WORDS);
    expect(4 * ARRIVALS_HEADER_WORDS).toBe(16);
    expect(parseU32Consts(wgsl('move.wgsl')).get('MAX_RANKS')).toBe(MAX_RANKS);
  });

  it('permute in sort.wgsl reads the sorted order from the dst array SORT_SCRATCH.ranked names', () => {
    const read = /fn permute_one\(k: u32\) \{\s*let i = dst(\d)\[k\];/.exec(wgsl('sort.wgsl'));
    expect(read, 'permute_one starts with let i = dstN[k]').not.toBeNull();
    expect(PARTICLE_ATTRIBUTES[Number(read![1])]).toBe(SORT_SCRATCH.ranked);
  });

  it('MOMENTS in sample-sums.wgsl equals SAMPLE_MOMENTS, PARTIAL_WORDS in reduce.wgsl equals PARTIAL_WORDS', () => {
    expect(parseU32Consts(wgsl('sample-sums.wgsl')).get('MOMENTS')).toBe(SAMPLE_MOMENTS);
    expect(parseU32Consts(wgsl('reduce.wgsl')).get('PARTIAL_WORDS')).toBe(PARTIAL_WORDS);
  });

  it('no other shader redefines a shared struct or constant', () => {
    const shared = new Set([...structs.keys(), ...consts.keys()]);
    const files = readdirSync(shaderDir).filter((f) => f.endsWith('.wgsl') && f !== 'common.wgsl' && f !== 'scan.wgsl');
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = wgsl(file);
      const defined = [...parseStructs(text).keys(), ...parseU32Consts(text).keys()];
      expect(defined.filter((d) => shared.has(d)), file).toEqual([]);
    }
  });
});
