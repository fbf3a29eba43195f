// What the services know about the GPU: the default adapter (opened once, then closed) for the launch view
// and its limits for the live pre-launch check of the case editor.
import { gasVolumeOf, prelaunchCheck } from '../cases/prelaunch.js';
import type { CaseCheck, GpuInfo } from '../common/contract/types.js';
import { CaseError, parseCase } from '../common/case-schema.js';
import { discoverGpus } from '../cluster/gpus.js';
import { openGpu } from '../solver/gpu/device.js';
import { stepsPerSubmit } from '../solver/submit-plan.js';
import { bufferPlan, initialCapacity } from '../solver/state.js';
import { buildTables } from '../solver/tables.js';

/** The default adapter's description and the limits the pre-launch check uses. */
export interface AdapterFacts {
  gpu: GpuInfo;
  limits: { maxStorageBufferBindingSize: number; maxBufferSize: number };
}

let cached: Promise<AdapterFacts> | null = null;

/** Opens the default adapter once (cached for the process) and keeps its description and limits. */
export function adapterFacts(): Promise<AdapterFacts> {
  cached ??= (async () => {
    const gpu = await openGpu();
    try {
      const limits = {
        maxStorageBufferBindingSize: Number(gpu.limits.maxStorageBufferBindingSize),
        maxBufferSize: Number(gpu.limits.maxBufferSize),
      };
      return { gpu: { index: 0, description: gpu.adapter.description, kind: 'default adapter', pci: null, backend: gpu.adapter.backend, maxBufferBytes: limits.maxBufferSize, memoryBytes: null }, limits };
    } finally {
      gpu.device.destroy();
    }
  })();
  cached.catch(() => { cached = null; });
  return cached;
}

let discovered: GpuInfo[] | null = null;

/** The GPUs Mesa's device-select layer lists (cluster/gpus.ts; once per process), else the default adapter alone. */
export async function listGpus(): Promise<GpuInfo[]> {
  const facts = await adapterFacts();
  discovered ??= discoverGpus().map((g) => ({
    index: g.index, description: g.name, kind: g.kind, pci: g.pci, backend: facts.gpu.backend,
    maxBufferBytes: g.index === 0 ? facts.gpu.maxBufferBytes : null, memoryBytes: g.memoryBytes,
  }));
  return discovered.length > 0 ? discovered : [facts.gpu];
}

/** Validates a case and runs the pre-launch check against the default adapter's limits (in this thread). */
export async function checkCaseJson(caseJson: unknown): Promise<CaseCheck> {
  const facts = await adapterFacts();
  return checkCaseWithLimits(caseJson, facts.limits, `${facts.gpu.description} [${facts.gpu.backend}]`);
}

/** The check itself, without the GPU: parse, mesh and place the bodies, pre-launch rules against `limits` (synchronous; heavy for large meshes). */
export function checkCaseWithLimits(caseJson: unknown, limits: AdapterFacts['limits'], adapter: string): CaseCheck {
  let c;
  let tables;
  try {
    c = parseCase(caseJson);
    // bodies are meshed and placed here: bad geometry is a case issue with its body's path, like a schema one
    tables = buildTables(c);
  } catch (e) {
    if (e instanceof CaseError) return { ok: false, issues: e.issues, prelaunch: null, adapter };
    throw e;
  }
  const report = prelaunchCheck(c, { limits, buffers: bufferPlan(tables, initialCapacity(tables, stepsPerSubmit(c))), gasVolume: gasVolumeOf(c, tables.bodies.volumeFraction), bodyWarnings: tables.bodies.warnings });
  // the contract's estimates are numbers by name: each rotating (vibrating) species' relaxation as named numbers
  const { rotation, vibration, reactions, ...numbers } = report.estimates;
  const estimates: Record<string, number> = { ...numbers };
  if (reactions) {
    estimates.reactions = reactions.reactions;
    estimates['reactionProductsPerStep'] = reactions.productsPerStep;
    estimates['reactionProductsAtMost'] = reactions.mostProducts;
  }
  for (const r of rotation) {
    estimates[`rotationalRelaxationCollisions ${r.species}`] = r.relaxationCollisions;
    estimates[`rotationalRelaxationTime ${r.species}`] = r.relaxationTime;
  }
  for (const v of vibration) {
    estimates[`vibrationalCollisionNumber ${v.species}`] = v.zVib;
    estimates[`vibrationalRelaxationTime ${v.species}`] = v.relaxationTime;
  }
  return { ok: report.ok, issues: [], prelaunch: { errors: report.errors, warnings: report.warnings, estimates }, adapter };
}
