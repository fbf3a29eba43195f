// The per-particle arrays (structure of arrays, one 32-bit word per particle each).

/** Names of the particle arrays, in the order the permute pass moves them. */
export const PARTICLE_ATTRIBUTES = ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'cell', 'pid', 'species'] as const;
export type ParticleAttribute = (typeof PARTICLE_ATTRIBUTES)[number];

/** One complete set of particle arrays. */
export type ParticleSet = Record<ParticleAttribute, GPUBuffer>;

/** Scratch arrays per particle used by the sort (arrival slot in the cell, sorted order). */
export const SORT_SCRATCH = ['slot', 'order'] as const;

/** Bytes of GPU memory per particle of capacity: two particle sets plus sort scratch. */
export const BYTES_PER_PARTICLE_SLOT = 4 * (2 * PARTICLE_ATTRIBUTES.length + SORT_SCRATCH.length);
