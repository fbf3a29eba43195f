// The live particles of each species of a gas of two or more species (species-count.wgsl): exact integer counts for
// the totals over time (composition against time). One small counts buffer per simulation state, made on first use.
import { bindBuffers } from '../gpu/bind.js';
import { dispatchDims } from '../gpu/buffers.js';
import { UNIFORM_TABLES } from '../gpu/struct-layouts.js';
import type { PhaseContext } from './phase.js';

/** Bytes of the counts buffer (one u32 per species the tables can hold). */
export const SPECIES_COUNT_BYTES = 4 * UNIFORM_TABLES.MAX_SPECIES;
/** The counts buffer of each simulation state (freed with it). */
const countsOf = new WeakMap<object, GPUBuffer>();

/** The counts buffer of the context's state, made on first use. */
function countsBuffer(ctx: PhaseContext): GPUBuffer {
  let b = countsOf.get(ctx.state);
  if (!b) {
    b = ctx.device.createBuffer({ label: 'speciesCounts', size: SPECIES_COUNT_BYTES, usage: 0x0080 | 0x0004 | 0x0008 }); // STORAGE | COPY_SRC | COPY_DST
    countsOf.set(ctx.state, b);
  }
  return b;
}

/** Encodes the count of the n live particles per species into the counts buffer (cleared first). */
export function encodeSpeciesCount(ctx: PhaseContext, enc: GPUCommandEncoder, n: number): GPUBuffer {
  const counts = countsBuffer(ctx);
  enc.clearBuffer(counts);
  const pipeline = ctx.cache.get({ file: 'species-count.wgsl', entry: 'count_species' });
  const pass = enc.beginComputePass({ label: 'species-count' });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindBuffers(ctx.device, pipeline, 'species-count', { 1: ctx.state.ctl, 2: ctx.state.live.cell, 3: counts }));
  pass.dispatchWorkgroups(...dispatchDims(n, 256));
  pass.end();
  return counts;
}
