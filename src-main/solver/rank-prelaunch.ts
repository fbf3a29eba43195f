// The pre-launch check on an open adapter (prelaunchOn: one GPU's run, run-case.ts checkCase, or one rank's part), and
// of one rank of a multi-rank run: the buffers of its own subdomain (its share of the particles, its local cell range,
// the keys and migrant buffers) against its adapter's limits, before any is made.
import { formatPrelaunch, gasVolumeOf, prelaunchCheck, type PrelaunchReport } from '../cases/prelaunch.js';
import type { Case } from '../common/case-schema.js';
import type { Gpu } from './gpu/device.js';
import { stepsPerSubmit } from './submit-plan.js';
import { bufferPlan, initialCapacity, type BufferRequirement } from './state.js';
import { cellShare, type Subdomain } from './subdomain.js';
import { buildTables, type SolverTables } from './tables.js';

/** The pre-launch report of case `c` allocating `buffers` on `gpu` (against its limits; the case's physics rules and bodies). */
export function prelaunchOn(c: Case, gpu: Gpu, tables: SolverTables, buffers: BufferRequirement[]): PrelaunchReport {
  return prelaunchCheck(c, {
    limits: { maxStorageBufferBindingSize: Number(gpu.limits.maxStorageBufferBindingSize), maxBufferSize: Number(gpu.limits.maxBufferSize) },
    buffers,
    gasVolume: gasVolumeOf(c, tables.bodies.volumeFraction), bodyWarnings: tables.bodies.warnings,
  });
}

/** The pre-launch report of one rank's part of case `c` (its buffers against `gpu`'s limits; the case's physics rules). */
export function rankPrelaunch(c: Case, gpu: Gpu, sub: Subdomain, tables: SolverTables = buildTables(c)): PrelaunchReport {
  // the share without the room for gathering particles (a rank whose room does not fit starts without it)
  const capacity = initialCapacity(tables, stepsPerSubmit(c), cellShare(sub, tables.nCells), false);
  return prelaunchOn(c, gpu, tables, bufferPlan(tables, capacity, sub.nLocal, sub.worldSize));
}

/**
 * Throws an error naming the rank and every limit its buffers break (the errors of prelaunchCheck); returns when they
 * fit. `tables`: the case's, when the caller built them already (the rank's Simulation takes the same).
 */
export function checkRankBuffers(c: Case, gpu: Gpu, sub: Subdomain, tables: SolverTables = buildTables(c)): void {
  const report = rankPrelaunch(c, gpu, sub, tables);
  if (report.ok) return;
  const errors = { ...report, warnings: [] };
  throw new Error(`rank ${sub.rank} of ${sub.worldSize} cannot run its part of the case on this adapter (more ranks, or fewer particles, make the parts fit):\n${formatPrelaunch(errors)}`);
}
