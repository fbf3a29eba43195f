// Runs one case on one device, start to finish: parse, pre-launch check, fill, step loop, summary.
// Used in-process by `dsmc run` and `dsmc bench`; the multi-GPU rank process will wrap the same loop.
import { prelaunchCheck, formatPrelaunch, type PrelaunchReport } from '../cases/prelaunch.js';
import { parseCase, type Case } from '../common/case-schema.js';
import { applyOverrides } from '../common/case-overrides.js';
import { openGpu, type Gpu } from './gpu/device.js';
import { Simulation, stepsPerSubmit, type LoopOptions, type LoopResult } from './loop.js';
import { bufferPlan, initialCapacity } from './state.js';
import { summarize, type RunSummary } from './summary.js';
import { buildTables } from './tables.js';

/** Thrown when the pre-launch check refuses a case; the message lists the errors. */
export class PrelaunchRefused extends Error {
  constructor(readonly report: PrelaunchReport) {
    super(`The case cannot run on this adapter:\n${formatPrelaunch(report)}`);
  }
}

/** Parses a case file's JSON with --set overrides applied (throws CaseError naming fields). */
export function loadCase(json: unknown, sets: string[] = []): Case {
  return parseCase(applyOverrides(json, sets));
}

/** The pre-launch report of a case on an open device. */
export function checkCase(c: Case, gpu: Gpu): PrelaunchReport {
  const tables = buildTables(c);
  const capacity = initialCapacity(tables, stepsPerSubmit(c));
  return prelaunchCheck(c, {
    limits: {
      maxStorageBufferBindingSize: Number(gpu.limits.maxStorageBufferBindingSize),
      maxBufferSize: Number(gpu.limits.maxBufferSize),
    },
    buffers: bufferPlan(tables, capacity),
  });
}

/** A finished run: the summary and the raw loop result (fields, step statistics). */
export interface CaseRun {
  summary: RunSummary;
  result: LoopResult;
  prelaunch: PrelaunchReport;
}

/** Runs a parsed case on `gpu` (or the default adapter) and summarizes it; warmupSteps run untimed first. */
export async function runCase(
  c: Case,
  options: LoopOptions & { gpu?: Gpu; onPrelaunch?: (r: PrelaunchReport) => void; warmupSteps?: number } = {},
): Promise<CaseRun> {
  const gpu = options.gpu ?? (await openGpu());
  try {
    const prelaunch = checkCase(c, gpu);
    options.onPrelaunch?.(prelaunch);
    if (!prelaunch.ok) throw new PrelaunchRefused(prelaunch);
    const sim = new Simulation(gpu, c);
    await sim.initialize();
    // benchmarks time a warm loop: the first submits pay for the driver's lazy shader compilation
    if (options.warmupSteps) await sim.run({ signal: options.signal }, options.warmupSteps);
    const result = await sim.run(options);
    const gpuBytes = bufferPlan(sim.tables, sim.state.capacity).reduce((s, b) => s + b.bytes, 0);
    return { summary: summarize(c.name, result, gpu.adapter, gpuBytes), result, prelaunch };
  } finally {
    if (!options.gpu) gpu.device.destroy();
  }
}
