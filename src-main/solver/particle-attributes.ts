// The per-particle arrays (structure of arrays, one 32-bit word per particle each).

/**
 * Names of the particle arrays, in the order the permute pass moves them. `cell` holds the cell
 * index in its low CELL_BITS bits and the species above them (CELL_WORD in struct-layouts.ts).
 */
export const PARTICLE_ATTRIBUTES = ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'cell'] as const;
export type ParticleAttribute = (typeof PARTICLE_ATTRIBUTES)[number];

/** One complete set of particle arrays. */
export type ParticleSet = Record<ParticleAttribute, GPUBuffer>;

/**
 * Bytes of GPU memory per particle of capacity: two particle sets (the sort gathers from one into
 * the other and keeps its scratch in the idle one).
 */
export const BYTES_PER_PARTICLE_SLOT = 4 * 2 * PARTICLE_ATTRIBUTES.length;

/**
 * Where the sort keeps its scratch in the idle set (sort.wgsl): arrival slots (one rank), the cells' particles in
 * arrival order, and the sorted order, which permute reads as dst4 (the fifth attribute, vy) before it writes it. The
 * idle set's cell array takes the cell words in sorted order from the order stage (put_sorted), so it holds no scratch.
 */
export const SORT_SCRATCH = { slot: 'vz', order: 'px', ranked: 'vy' } as const satisfies Record<string, ParticleAttribute>;
