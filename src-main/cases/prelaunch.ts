// Pre-launch check of a parsed case against the rules of thumb in PHYSICS.md (cell size vs mean free
// path, dt vs residence and collision times, particles per cell) and the GPU's buffer limits.
import type { Case } from '../common/case-schema.js';
import { CELL_WORD } from '../solver/gpu/struct-layouts.js';
import { FACES, cellCount, cellVolume, domainVolume, moleFractions, referenceState, resolvedFnum } from '../common/case-schema.js';
import type { ReferenceState } from '../common/case-schema.js';
import { mixtureCollisionRate, mixtureMeanFreePath } from '../common/gas-mixture.js';
import { millikanWhite, millikanWhiteZ, mostProbableSpeed, pairModel, parkerZ } from '../common/physics.js';
import { bytesText, sci } from './prelaunch-format.js';
import { bodyGeometryIssues } from '../solver/body-tables.js';

import { reactionEstimates, reactionFindings, type ReactionEstimates } from './prelaunch-reactions.js';
export { formatPrelaunch } from './prelaunch-format.js';

/** One warning or error: a stable code, the case field (or buffer) to change, and the text with numbers. */
export interface Finding {
  code: string;
  field: string;
  message: string;
}

/** What the solver will allocate, and what the adapter allows. */
export interface PrelaunchGpu {
  limits: { maxStorageBufferBindingSize: number; maxBufferSize: number };
  buffers: { label: string; bytes: number }[];
  deviceMemoryBytes?: number;
  /** Volume of the box not inside bodies, m^3, from the cell table (gasVolumeOf); the whole box when not given. */
  gasVolume?: number;
  /** The bodies' placement warnings found when the tables were built (BodyTables.warnings); found again when not given. */
  bodyWarnings?: { path: string; message: string }[];
}

/** The gas volume of a case's cells (m^3): each cell's gas fraction times its volume; the whole box without bodies. */
export function gasVolumeOf(c: Case, volumeFraction: Float64Array | null): number {
  if (!volumeFraction) return domainVolume(c);
  let sum = 0;
  for (let i = 0; i < volumeFraction.length; i++) sum += volumeFraction[i];
  return sum * cellVolume(c);
}

// An error when bodies fill the whole box: no cell keeps any gas, so the run would have no particles.
function gasVolumeFindings(c: Case, gasVolume: number): Finding[] {
  if (c.bodies.length === 0 || gasVolume > 0) return [];
  return [{
    code: 'no-gas-volume',
    field: 'bodies',
    message: `the bodies fill the whole box (${c.grid.cells.join(' x ')} cells, none with any gas), so the run would have no particles: ` +
      'shrink or move the bodies, or enlarge the box (grid.cells, grid.cellSize) so gas surrounds them',
  }];
}

/** Estimates (SI units) behind the findings. */
export interface PrelaunchEstimates {
  fnum: number;
  /** Expected simulated particles at step 0 (0 for an empty box). */
  particles: number;
  /** Simulated particles with the whole box at the reference density (the steady state of an inflow case). */
  referenceParticles: number;
  meanFreePath: number;
  meanCollisionTime: number;
  cellResidenceTime: number;
  particlesPerCell: number;
  totalBufferBytes: number;
  /** totalBufferBytes / the larger of particles and referenceParticles (0 when both are 0). */
  bytesPerParticle: number;
  /**
   * Per rotating species: its Zrot, and the rotational relaxation it gives in collisions per molecule
   * (Z (7/2 - omega)/(5/2 - omega): one Larsen-Borgnakke reset closes (5/2 - omega)/(7/2 - omega) of the gap) and in
   * seconds at the reference state. Empty for a monatomic gas.
   */
  rotation: { species: string; zRot: number; relaxationCollisions: number; relaxationTime: number }[];
  /**
   * Per vibrating species: its characteristic temperature, its Zvib at the reference temperature (constant, or
   * Millikan-White's with itself as partner), the equilibrium vibrational energy there in quanta per molecule,
   * 1/(exp(theta_v/T) - 1), and the relaxation time Zvib times the mean collision time. Empty without vibration.
   */
  vibration: { species: string; theta: number; zVib: number; quantaAtReference: number; relaxationTime: number }[];
  /** Reacting cases: the particles the dissociations will make (prelaunch-reactions.ts); absent without reactions. */
  reactions?: ReactionEstimates;
}

/** Result of prelaunchCheck: ok is false when any error refuses the launch. */
export interface PrelaunchReport {
  ok: boolean;
  errors: Finding[];
  warnings: Finding[];
  estimates: PrelaunchEstimates;
}

/** Quantities the physics rules look at. */
interface Physics {
  ref: ReferenceState;
  refText: string;
  fnum: number;
  lambda: number;
  tau: number;
  tRes: number;
  dxMin: number;
  dxMax: number;
  cmp: number;
  flowSpeed: number;
  particlesPerCell: number;
}

// Refuses grids whose cell index does not fit the particle's cell word (CELL_WORD in struct-layouts.ts).
function cellIndexFindings(c: Case): Finding[] {
  const n = cellCount(c);
  if (n <= CELL_WORD.MASK) return [];
  return [{
    code: 'too-many-cells',
    field: 'grid.cells',
    message: `${n} cells; a particle stores its cell index in ${CELL_WORD.BITS} bits, so at most ${CELL_WORD.MASK} cells fit: use fewer, larger cells`,
  }];
}

// Checks a case before launch: physics warnings, and errors for buffers the GPU cannot hold.
export function prelaunchCheck(c: Case, gpu: PrelaunchGpu): PrelaunchReport {
  const p = physicsOf(c);
  // bad geometry is refused as a case error when the tables are built (body-tables.ts); here only its warnings
  const bodyWarnings = gpu.bodyWarnings ?? (c.bodies.length > 0 ? bodyGeometryIssues(c).warnings : []);
  const warnings = [...physicsFindings(c, p), ...bodyWarnings.map((i) => ({ code: 'body-thin', field: i.path, message: i.message })), ...reactionFindings(c)];
  const reactions = reactionEstimates(c);
  const gasVolume = gpu.gasVolume ?? domainVolume(c);
  const errors = [...gasVolumeFindings(c, gasVolume), ...cellIndexFindings(c), ...bufferFindings(gpu)];
  const totalBufferBytes = gpu.buffers.reduce((s, b) => s + b.bytes, 0);
  // particles fill the gas volume only: cells inside bodies hold none, cut cells their gas fraction
  const particles = c.initial.kind === 'empty' ? 0 : (c.initial.numberDensity * gasVolume) / p.fnum;
  const referenceParticles = (p.ref.numberDensity * gasVolume) / p.fnum;
  const most = Math.max(particles, referenceParticles);
  return {
    ok: errors.length === 0,
    errors,
    warnings,
    estimates: {
      fnum: p.fnum,
      particles,
      referenceParticles,
      meanFreePath: p.lambda,
      meanCollisionTime: p.tau,
      cellResidenceTime: p.tRes,
      particlesPerCell: p.particlesPerCell,
      totalBufferBytes,
      bytesPerParticle: most > 0 ? totalBufferBytes / most : 0,
      rotation: c.species.filter((s) => s.rotationalDof > 0).map((s) => {
        // Parker's Zrot taken at the reference temperature
        const zRot = s.parker ? parkerZ(s.parker.zInf, s.parker.tStar, p.ref.temperature) : s.rotationalRelaxation;
        const relaxationCollisions = (zRot * (3.5 - s.omega)) / (2.5 - s.omega);
        return { species: s.name, zRot, relaxationCollisions, relaxationTime: relaxationCollisions * p.tau };
      }),
      vibration: c.species.flatMap((s) => {
        if (!s.vibration) return [];
        const theta = s.vibration.characteristicTemperature;
        const t = p.ref.temperature;
        const zVib = s.vibration.millikanWhite ? millikanWhiteZ(millikanWhite(theta, pairModel(s, s)), t) : s.vibration.relaxation;
        return [{ species: s.name, theta, zVib, quantaAtReference: 1 / Math.expm1(theta / t), relaxationTime: zVib * p.tau }];
      }),
      ...(reactions ? { reactions } : {}),
    },
  };
}

// Cell sizes along the axes that can hold gradients: a single periodic cell is homogeneous and skipped.
function resolvedCellSizes(c: Case): number[] {
  const axes = [0, 1, 2].filter((a) => c.grid.cells[a] > 1 || c.boundaries[FACES[2 * a]].type !== 'periodic');
  return (axes.length > 0 ? axes : [0, 1, 2]).map((a) => c.grid.cellSize[a]);
}

// Largest speed the case imposes: initial drift, inflow streams and moving walls, m/s.
function flowSpeedOf(c: Case): number {
  const speeds = c.initial.kind === 'empty' ? [] : [Math.hypot(...c.initial.velocity)];
  for (const face of FACES) {
    const b = c.boundaries[face];
    if (b.type === 'inflow' || b.type === 'diffuse') speeds.push(Math.hypot(...b.velocity));
  }
  return Math.max(0, ...speeds);
}

// Highest temperature the case imposes: initial gas, inflow reservoirs and walls, K.
function maxTemperatureOf(c: Case, ref: ReferenceState): number {
  const temps = [ref.temperature];
  if (c.initial.kind !== 'empty') temps.push(c.initial.temperature);
  for (const face of FACES) {
    const b = c.boundaries[face];
    if (b.type === 'inflow' || b.type === 'diffuse') temps.push(b.temperature);
  }
  return Math.max(...temps);
}

// Computes the reference-state estimates used by the physics rules.
function physicsOf(c: Case): Physics {
  const ref = referenceState(c);
  const x = moleFractions(c, ref.fractions);
  const fnum = resolvedFnum(c);
  const lambda = mixtureMeanFreePath(c.species, x, ref.numberDensity, ref.temperature);
  const tau = 1 / mixtureCollisionRate(c.species, x, ref.numberDensity, ref.temperature);
  const sizes = resolvedCellSizes(c);
  const dxMin = Math.min(...sizes);
  const tMax = maxTemperatureOf(c, ref);
  const cmp = Math.max(...c.species.map((s) => mostProbableSpeed(tMax, s.mass)));
  const flowSpeed = flowSpeedOf(c);
  const refText = `reference state n = ${sci(ref.numberDensity)} m^-3, T = ${sci(ref.temperature)} K from ${ref.source}`;
  return {
    ref, refText, fnum, lambda, tau, dxMin, cmp, flowSpeed,
    dxMax: Math.max(...sizes),
    tRes: dxMin / (cmp + flowSpeed),
    particlesPerCell: (ref.numberDensity * cellVolume(c)) / fnum,
  };
}

type PhysicsRule = (c: Case, p: Physics) => Finding[];

// Warns when the box has no gas at all (nothing else can be estimated then).
const noGas: PhysicsRule = (c, p) => {
  if (p.ref.numberDensity > 0) return [];
  return [{
    code: 'no-gas',
    field: 'initial.kind',
    message: `initial.kind is "${c.initial.kind}" and no boundary is an inflow, so the run has no gas: fill the box (initial.kind "maxwellian" with numberDensity > 0 m^-3) or make a face an inflow`,
  }];
};

// Warns when the largest cell is wider than the mean free path.
const cellSize: PhysicsRule = (_c, p) => {
  if (!(p.dxMax > p.lambda)) return [];
  return [{
    code: 'cell-size',
    field: 'grid.cellSize',
    message: `largest cell size ${sci(p.dxMax)} m is ${sci(p.dxMax / p.lambda)} mean free paths (lambda = ${sci(p.lambda)} m, ${p.refText}); collision partners are too far apart. Ideal is cell size <= lambda/3 = ${sci(p.lambda / 3)} m: use more, smaller cells (grid.cells, grid.cellSize) or a lower density`,
  }];
};

// Warns when particles can cross a cell in fewer than four steps.
const dtResidence: PhysicsRule = (c, p) => {
  if (!(c.run.dt > p.tRes / 4)) return [];
  return [{
    code: 'dt-residence',
    field: 'run.dt',
    message: `run.dt = ${sci(c.run.dt)} s is more than a quarter of the cell residence time: t_res = smallest cell ${sci(p.dxMin)} m / (c_mp ${sci(p.cmp)} m/s + flow speed ${sci(p.flowSpeed)} m/s) = ${sci(p.tRes)} s, t_res/4 = ${sci(p.tRes / 4)} s; particles skip cells. Use run.dt <= ${sci(p.tRes / 4)} s (and more run.steps)`,
  }];
};

// Warns when the timestep exceeds the mean collision time.
const dtCollision: PhysicsRule = (c, p) => {
  if (!(c.run.dt > p.tau)) return [];
  return [{
    code: 'dt-collision',
    field: 'run.dt',
    message: `run.dt = ${sci(c.run.dt)} s exceeds the mean collision time 1/nu = ${sci(p.tau)} s (${p.refText}); collisions lag the motion. Use run.dt well under ${sci(p.tau)} s, e.g. ${sci(0.2 * p.tau)} s (and more run.steps)`,
  }];
};

// Warns when there are too few simulated particles per cell for collision statistics.
const perCell: PhysicsRule = (_c, p) => {
  if (!(p.particlesPerCell < 10)) return [];
  return [{
    code: 'particles-per-cell',
    field: 'particles',
    message: `about ${sci(p.particlesPerCell)} simulated particles per cell (fnum = ${sci(p.fnum)}, ${p.refText}); collision statistics need at least 10, about 20 is good: set particles.perCell to 20 or lower particles.fnum`,
  }];
};

// Warns when sampling starts after the last step.
const samplingStart: PhysicsRule = (c) => {
  if (!c.sampling.enabled || c.sampling.start <= c.run.steps) return [];
  return [{
    code: 'sampling-after-end',
    field: 'sampling.start',
    message: `sampling.start = ${c.sampling.start} is after the last step (run.steps = ${c.run.steps}), so nothing will be sampled: lower sampling.start or raise run.steps`,
  }];
};

/** Rules that estimate the gas; they run only when the case has gas. */
const GAS_RULES: PhysicsRule[] = [cellSize, dtResidence, dtCollision, perCell];

// Runs the physics rules in the order their findings are listed.
function physicsFindings(c: Case, p: Physics): Finding[] {
  const gas = p.ref.numberDensity > 0 ? GAS_RULES.flatMap((rule) => rule(c, p)) : [];
  return [...noGas(c, p), ...gas, ...samplingStart(c, p)];
}

// Errors for buffers over the adapter's limits and for a total over the device memory.
function bufferFindings(gpu: PrelaunchGpu): Finding[] {
  const fix = 'use fewer particles (raise particles.fnum or lower particles.perCell) or fewer cells (grid.cells), or an adapter with larger limits';
  const out: Finding[] = [];
  const limits = [
    ['buffer-binding', 'maxStorageBufferBindingSize', 'binds at most', gpu.limits.maxStorageBufferBindingSize],
    ['buffer-size', 'maxBufferSize', 'allocates at most', gpu.limits.maxBufferSize],
  ] as const;
  for (const b of gpu.buffers) {
    for (const [code, name, verb, limit] of limits) {
      if (b.bytes > limit) {
        out.push({ code, field: `buffers.${b.label}`, message: `buffer "${b.label}" needs ${bytesText(b.bytes)} but this adapter ${verb} ${bytesText(limit)} per buffer (${name}); ${fix}` });
      }
    }
  }
  const total = gpu.buffers.reduce((s, b) => s + b.bytes, 0);
  if (gpu.deviceMemoryBytes !== undefined && total > gpu.deviceMemoryBytes) {
    out.push({ code: 'device-memory', field: 'buffers', message: `the GPU buffers need ${bytesText(total)} in all but the device has ${bytesText(gpu.deviceMemoryBytes)}; ${fix}` });
  }
  return out;
}
