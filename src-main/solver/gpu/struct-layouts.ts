// The one TypeScript description of every struct shared with WGSL (shaders/common.wgsl, scan.wgsl).
// Structs hold only 4-byte scalars, so field k sits at byte 4k; test/unit/struct-layouts.test.ts
// parses the WGSL and checks names, order and types against these lists.

export type ScalarType = 'u32' | 'f32';

/** A WGSL struct of 4-byte scalars and its packer. */
export class StructLayout<F extends string> {
  readonly byteSize: number;

  constructor(readonly name: string, readonly fields: readonly (readonly [F, ScalarType])[]) {
    this.byteSize = fields.length * 4;
  }

  /** Writes one struct value into view at byteOffset (missing fields become 0). */
  write(view: DataView, byteOffset: number, value: Partial<Record<F, number>>): void {
    this.fields.forEach(([name, type], k) => {
      const v = value[name] ?? 0;
      if (type === 'u32') view.setUint32(byteOffset + 4 * k, v >>> 0, true);
      else view.setFloat32(byteOffset + 4 * k, v, true);
    });
  }

  /** Packs one struct (padded to 16 bytes, as uniform buffers need). */
  pack(value: Partial<Record<F, number>>): ArrayBuffer {
    const buf = new ArrayBuffer(Math.ceil(this.byteSize / 16) * 16);
    this.write(new DataView(buf), 0, value);
    return buf;
  }

  /** Packs an array of structs back to back (storage-buffer stride = byteSize). */
  packArray(values: Partial<Record<F, number>>[]): ArrayBuffer {
    const buf = new ArrayBuffer(Math.max(values.length, 1) * this.byteSize);
    const view = new DataView(buf);
    values.forEach((v, i) => this.write(view, i * this.byteSize, v));
    return buf;
  }
}

export const SimParams = new StructLayout('SimParams', [
  ['nx', 'u32'], ['ny', 'u32'], ['nz', 'u32'], ['nCells', 'u32'],
  ['dx', 'f32'], ['dy', 'f32'], ['dz', 'f32'], ['dt', 'f32'],
  ['lx', 'f32'], ['ly', 'f32'], ['lz', 'f32'], ['nSpecies', 'u32'],
  ['invDx', 'f32'], ['invDy', 'f32'], ['invDz', 'f32'], ['collisionFactor', 'f32'],
  ['seedLo', 'u32'], ['seedHi', 'u32'], ['capacity', 'u32'], ['nFaceCells', 'u32'],
  ['statsRing', 'u32'], ['nInflowFaces', 'u32'], ['sampleEnabled', 'u32'], ['localDense', 'u32'],
  ['cellBase', 'u32'], ['nLocal', 'u32'], ['loX', 'u32'], ['loY', 'u32'],
  ['loZ', 'u32'], ['hiX', 'u32'], ['hiY', 'u32'], ['hiZ', 'u32'],
  ['rank', 'u32'], ['worldSize', 'u32'], ['segCap', 'u32'], ['oldCellBase', 'u32'],
  ['sampleStart', 'u32'], ['sampleInterval', 'u32'], ['nTris', 'u32'], ['nBodies', 'u32'],
  ['surfScaleP', 'f32'], ['surfScaleE', 'f32'], ['bodyEps', 'f32'], ['triBase', 'u32'],
  ['sampleScale1', 'f32'], ['sampleScale2', 'f32'], ['sampleScale3', 'f32'], ['sampleScaleE', 'f32'],
  ['oldLoX', 'u32'], ['oldLoY', 'u32'], ['oldLoZ', 'u32'], ['oldBx', 'u32'],
  ['oldBy', 'u32'], ['pad0', 'u32'], ['pad1', 'u32'], ['pad2', 'u32'],
] as const);

/** The uniform of sample.wgsl's sample_close: the closing block and the field scales (the mass ratios are a vec4 array beside it). */
export const CloseParams = new StructLayout('CloseParams', [
  ['passes', 'u32'], ['block', 'u32'], ['invPasses', 'f32'], ['massRef', 'f32'],
  ['unscale1', 'f32'], ['unscale2', 'f32'], ['unscale3', 'f32'], ['unscaleE', 'f32'],
] as const);

/** Gas-surface interaction of one surface model (each body, then the six domain faces): body.wgsl's SurfaceModel. */
export const SurfaceModel = new StructLayout('SurfaceModel', [
  ['kind', 'u32'], ['accommodation', 'f32'], ['pad0', 'u32'], ['pad1', 'u32'],
  ['velX', 'f32'], ['velY', 'f32'], ['velZ', 'f32'], ['pad2', 'f32'],
] as const);

/** One (surface model, species) entry: the wall's thermal speed sqrt(k T_w / m) and the species' mass over the reference mass. */
export const SurfaceSpecies = new StructLayout('SurfaceSpecies', [
  ['thermalSpeed', 'f32'], ['massRatio', 'f32'], ['rotKT', 'f32'], ['vibKTheta', 'f32'],
] as const);

/** Lengths of the uniform tables (common.wgsl MAX_SPECIES, MAX_SURFACE_MODELS): 16 species, 64 bodies + 6 faces. */
export const UNIFORM_TABLES = { MAX_SPECIES: 16, MAX_SURFACE_MODELS: 70 } as const;

/** Surface model kinds (body.wgsl SURF_*). */
export const SURFACE_MODEL_CODES = { specular: 1, diffuse: 2, maxwell: 3 } as const;

export const PairInfo = new StructLayout('PairInfo', [
  ['crossSection', 'f32'], ['crExponent', 'f32'], ['invAlpha', 'f32'], ['massFraction1', 'f32'],
  ['massFraction2', 'f32'], ['vss', 'u32'], ['rotRelax1', 'f32'], ['rotRelax2', 'f32'],
  ['lbExponent', 'f32'], ['reducedMass', 'f32'], ['zInf1', 'f32'], ['tStar1', 'f32'],
  ['zInf2', 'f32'], ['tStar2', 'f32'], ['vibKTheta1', 'f32'], ['vibKTheta2', 'f32'],
  ['vibRelax1', 'f32'], ['vibRelax2', 'f32'], ['mwA1', 'f32'], ['mwC1', 'f32'],
  ['mwA2', 'f32'], ['mwC2', 'f32'], ['omega', 'f32'], ['pad0', 'u32'],
] as const);

export const InitParams = new StructLayout('InitParams', [
  ['count', 'u32'], ['kind', 'u32'], ['velX', 'f32'], ['velY', 'f32'],
  ['velZ', 'f32'], ['rotTemperature', 'f32'], ['vibTemperature', 'f32'], ['pad2', 'u32'],
] as const);

export const SpeciesInfo = new StructLayout('SpeciesInfo', [
  ['mass', 'f32'], ['initFraction', 'f32'], ['initThermalSpeed', 'f32'], ['rotDof', 'f32'],
  ['vibKTheta', 'f32'], ['pad0', 'u32'], ['pad1', 'u32'], ['pad2', 'u32'],
] as const);

export const FaceInfo = new StructLayout('FaceInfo', [
  ['kind', 'u32'], ['faceCellBase', 'u32'], ['faceCellCount', 'u32'], ['pad0', 'u32'],
  ['velX', 'f32'], ['velY', 'f32'], ['velZ', 'f32'], ['pad1', 'f32'],
] as const);

export const FaceSpecies = new StructLayout('FaceSpecies', [
  ['thermalSpeed', 'f32'], ['injectMean', 'f32'], ['speedRatio', 'f32'], ['rotKT', 'f32'],
  ['vibKTheta', 'f32'], ['pad0', 'u32'], ['pad1', 'u32'], ['pad2', 'u32'],
] as const);

/** One gas-phase reaction of the collide kernel's reaction table (collide.wgsl, tables: reaction-tables.ts). */
export const Reaction = new StructLayout('Reaction', [
  ['r1', 'u32'], ['r2', 'u32'], ['p1', 'u32'], ['p2', 'u32'],
  ['kind', 'u32'], ['pad0', 'u32'], ['pad1', 'u32'], ['pad2', 'u32'],
  ['ea', 'f32'], ['er', 'f32'], ['prefactor', 'f32'], ['powA', 'f32'],
  ['powB', 'f32'], ['w1', 'f32'], ['w2', 'f32'], ['pad3', 'f32'],
] as const);

export const ScanParams = new StructLayout('ScanParams', [
  ['n', 'u32'], ['pad0', 'u32'], ['pad1', 'u32'], ['pad2', 'u32'],
] as const);

/** Every shared layout, for the layout test. */
export const ALL_LAYOUTS = [SimParams, PairInfo, Reaction, InitParams, SpeciesInfo, FaceInfo, FaceSpecies, ScanParams, SurfaceModel, SurfaceSpecies, CloseParams];

/** Boundary kind codes, as the BC_* constants of common.wgsl. */
export const BOUNDARY_CODES = { periodic: 0, specular: 1, diffuse: 2, inflow: 3, outflow: 4 } as const;

/** Control words and statistics ring layout, as the CTL_* and ST_* constants of common.wgsl. */
export const CTL = { STEP: 0, N: 1, N_ALL: 2, OVERFLOW: 3, INJECTED: 4, STATS_SLOT: 5, ARRIVALS: 6, N_MOVED: 7, N_INTERIOR: 8, HALO_CELLS: 9, N_INTERIOR_BEFORE: 10, RELAYOUT_FROM: 11, RELAYOUT_TO: 12, PRODUCTS: 13, WORDS: 14 } as const;
/** Words of the split steps' halo work buffer (HW_* in common.wgsl): the halo particles the interior pass listed. */
export const HALO_WORK = { LISTED: 0, WORDS: 4 } as const;
/** Words of one migrating particle without internal energy (MIGRANT_WORDS in common.wgsl): position, velocity, cell word, key (tables.ts migrantWordsOf adds the internal energy). */
export const MIGRANT_WORDS = 9;
/**
 * Words before the records in the arrivals buffer (ARRIVALS_HEADER in common.wgsl): the arrival count, then padding to
 * 16 bytes. The host uploads count and records in one copy; after_arrivals sets CTL_ARRIVALS from it.
 */
export const ARRIVALS_HEADER_WORDS = 4;
/** Index of the cell word in a migrant record. */
export const MIGRANT_CELL_WORD = 6;
/** A particle's cell word: cell index in the low BITS bits, species above (CELL_* in common.wgsl). */
export const CELL_WORD = { BITS: 27, MASK: 0x07ffffff } as const;
export const STATS = { WORDS: 8, STEP: 0, N_BEFORE: 1, INJECTED: 2, N_AFTER: 3, COLLISIONS: 4, CANDIDATES: 5, REACTIONS: 6, PRODUCTS: 7 } as const;
/** Reaction words of the stats buffer after its step ring (RX_* in common.wgsl). */
export const REACTION_WORDS = { MADE: 0, OVERFLOW: 1, STEP_TALLY: 2, MAX_REACTIONS: 64, RUN_TALLY: 66, WORDS: 130 } as const;
/** Velocity moments per species and cell in the sampling sums (MOMENTS in sample-sums.wgsl); a gas with internal modes adds its energies after them (sampleLayout). */
export const SAMPLE_MOMENTS = 13;
/** Words per workgroup in the reduction partials (reduce.wgsl). */
export const PARTIAL_WORDS = 8;
