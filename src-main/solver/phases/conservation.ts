// Totals over all live particles (momentum, kinetic and rotational energy, sum of m|v|, mean speed, count) for
// the conservation checks and step statistics: per-workgroup f32 partials (reduce.wgsl), summed 256 at a time on the
// GPU and those sums on the host in f64; and the particles of each species (a mixture: species-count.ts, exact integers).
import { bindBuffers } from '../gpu/bind.js';
import { dispatchDims } from '../gpu/buffers.js';
import { PARTIAL_WORDS } from '../gpu/struct-layouts.js';
import type { PhaseContext } from './phase.js';
import { SPECIES_COUNT_BYTES, encodeSpeciesCount } from './species-count.js';

/** Physical totals of the particle system (SI units; real molecules, i.e. times Fnum). */
export interface ParticleTotals {
  particles: number;
  momentum: [number, number, number];
  kineticEnergy: number;
  /** Rotational energy (0 when nothing rotates; absent in totals saved before it was kept). */
  internalEnergy?: number;
  /** Sum of m|v|: the scale momentum drift is measured against. */
  momentumMagnitudeSum: number;
  meanSpeed: number;
  /** Simulated particles of each species, species order (a one-species gas: the particle count; absent in totals saved before it was kept). */
  speciesCounts?: number[];
}

/**
 * Reads the totals of the live particle set (n live particles, known to the caller). Everything is queued before the
 * first await (the reduction, the species count and their copies into staging buffers this call takes from its pool), so the
 * totals are those of the particles as the queue holds them now even when the caller queues more work before it
 * awaits the result (the loop reads its periodic totals while the next submit runs); buffer growth or a read-back
 * release meanwhile cannot touch these staging buffers.
 */
export async function particleTotals(ctx: PhaseContext, n: number): Promise<ParticleTotals> {
  const { device, cache, state: s } = ctx;
  const species = s.tables.species.length;
  if (n === 0) return { particles: 0, momentum: [0, 0, 0], kineticEnergy: 0, internalEnergy: 0, momentumMagnitudeSum: 0, meanSpeed: 0, speciesCounts: new Array<number>(species).fill(0) };
  const pipeline = cache.get({ file: 'reduce.wgsl', entry: 'reduce_particles' });
  const second = cache.get({ file: 'reduce.wgsl', entry: 'reduce_partials' });
  const p = s.live;
  const blocks = Math.ceil(n / 256);
  const groups = Math.ceil(blocks / 256);
  const enc = device.createCommandEncoder({ label: 'reduce' });
  const pass = enc.beginComputePass({ label: 'reduce' });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindBuffers(device, pipeline, 'reduce', {
    1: s.ctl, 2: s.speciesInfo, 3: p.vx, 4: p.vy, 5: p.vz, 6: p.cell, 7: s.partials, 8: s.liveEint,
  }));
  pass.dispatchWorkgroups(...dispatchDims(n, 256));
  // the workgroups' partials summed 256 at a time: the host reads and adds `groups` records
  pass.setPipeline(second);
  pass.setBindGroup(0, bindBuffers(device, second, 'reduce-partials', { 1: s.ctl, 7: s.partials, 9: s.partials2 }));
  pass.dispatchWorkgroups(...dispatchDims(blocks, 256));
  pass.end();
  // a mixture's particles per species, in the same submit (one species: all of them, nothing to count)
  const counts = species > 1 ? encodeSpeciesCount(ctx, enc, n) : null;
  // the second-level partials are summed in the mapped range (a kilobyte a 65,536 particles)
  const sum = new Float64Array(PARTIAL_WORDS);
  const partialsRead = stagedCopy(device, s, enc, s.partials2, 4 * PARTIAL_WORDS * groups, (range) => {
    const partials = new Float32Array(range, 0, PARTIAL_WORDS * groups);
    for (let g = 0; g < groups; g++) for (let k = 0; k < PARTIAL_WORDS; k++) sum[k] += partials[g * PARTIAL_WORDS + k];
  });
  const countsRead = counts ? stagedCopy(device, s, enc, counts, SPECIES_COUNT_BYTES, (range) => Array.from(new Uint32Array(range, 0, species))) : null;
  device.queue.submit([enc.finish()]);
  await partialsRead();
  const m0 = s.tables.species[0].mass;
  const w = s.tables.fnum * m0;
  return {
    particles: sum[6],
    momentum: [sum[0] * w, sum[1] * w, sum[2] * w],
    kineticEnergy: sum[3] * w,
    internalEnergy: sum[7] * w,
    momentumMagnitudeSum: sum[4] * w,
    meanSpeed: sum[6] > 0 ? sum[5] / sum[6] : 0,
    speciesCounts: countsRead ? await countsRead() : [n],
  };
}

/**
 * Staging buffers of the totals' read-backs, per simulation state: a read takes one that is free and big enough (else
 * makes one) and gives it back once read, so the loop's periodic totals reuse one buffer (a new host-visible buffer per
 * read is an allocation in the driver each time), while reads that overlap get buffers of their own.
 */
const freeStaging = new WeakMap<object, GPUBuffer[]>();

/**
 * Encodes a copy of bytes [0, bytes) of src into a staging buffer of the state's pool; the returned function maps it
 * (once the queue got there), hands the mapped range to `use` and gives the buffer back.
 */
function stagedCopy<T>(device: GPUDevice, owner: object, enc: GPUCommandEncoder, src: GPUBuffer, bytes: number, use: (range: ArrayBuffer) => T): () => Promise<T> {
  const size = Math.max(4, Math.ceil(bytes / 4) * 4);
  let pool = freeStaging.get(owner);
  if (!pool) freeStaging.set(owner, (pool = []));
  const at = pool.findIndex((b) => b.size >= size);
  if (at < 0) {
    // the reads outgrew every free buffer (the particles grew): those go, so the pool does not pile up small ones
    for (const b of pool.splice(0)) b.destroy();
  }
  const staging = at >= 0 ? pool.splice(at, 1)[0] : device.createBuffer({ label: `totals:${src.label}`, size, usage: 0x0001 | 0x0008 }); // MAP_READ | COPY_DST
  enc.copyBufferToBuffer(src, 0, staging, 0, size);
  return async () => {
    let mapped = false;
    try {
      await staging.mapAsync(0x0001, 0, size);
      mapped = true;
      return use(staging.getMappedRange(0, size));
    } finally {
      if (mapped) {
        staging.unmap();
        pool.push(staging);
      } else {
        staging.destroy();
      }
    }
  };
}
