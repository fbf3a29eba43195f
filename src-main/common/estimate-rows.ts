// The pre-launch check's estimates as the case editor lists them: a label in words and the value with its unit in
// readable form (2.35 mm, 41.2 ns, 81,920 particles, 1.50 GiB). The contract carries them as numbers by name
// (src-main/services/gpu-info.ts); per-species names end with the species (`rotationalRelaxationTime N2`).
import { readableBytes, readableCount, readableNumber, readableSi } from './readable-numbers.js';

/** One row of the estimates table; `known` is false for a name this table does not know (shown plain). */
export interface EstimateRow {
  key: string;
  label: string;
  value: string;
  known: boolean;
}

/** Label and formatter of one estimate name. */
interface EstimateFormat {
  label: string;
  format: (x: number) => string;
}

/** The estimates of the whole case, by name. */
const CASE_ESTIMATES: Readonly<Record<string, EstimateFormat>> = {
  particles: { label: 'initial particles', format: (x) => `${readableCount(x)} particles` },
  referenceParticles: { label: 'particles at the reference density', format: (x) => `${readableCount(x)} particles` },
  particlesPerCell: { label: 'particles per cell (reference density)', format: (x) => `${readableNumber(x)} particles / cell` },
  fnum: { label: 'Fnum (real molecules per simulated particle)', format: (x) => `${readableNumber(x)} molecules / particle` },
  meanFreePath: { label: 'mean free path', format: (x) => readableSi(x, 'm', 1) },
  meanCollisionTime: { label: 'mean collision time', format: (x) => readableSi(x, 's', 1) },
  cellResidenceTime: { label: 'cell residence time', format: (x) => readableSi(x, 's', 1) },
  totalBufferBytes: { label: 'GPU memory (buffers)', format: readableBytes },
  bytesPerParticle: { label: 'GPU memory per particle', format: (x) => `${readableNumber(x)} bytes` },
};

/** The per-species estimates, by the name before the species. */
const SPECIES_ESTIMATES: Readonly<Record<string, EstimateFormat>> = {
  rotationalRelaxationCollisions: { label: 'rotational relaxation', format: (x) => `${readableNumber(x)} collisions` },
  rotationalRelaxationTime: { label: 'rotational relaxation time', format: (x) => readableSi(x, 's', 1) },
  vibrationalCollisionNumber: { label: 'Zvib at the reference temperature', format: (x) => `${readableNumber(x)} collisions` },
  vibrationalRelaxationTime: { label: 'vibrational relaxation time', format: (x) => readableSi(x, 's', 1) },
};

/** One estimate as a row: the case's by name, a species' as "<species>: <label>", anything else plain. */
function estimateRow(key: string, x: number): EstimateRow {
  const own = CASE_ESTIMATES[key];
  if (own) return { key, label: own.label, value: own.format(x), known: true };
  const space = key.indexOf(' ');
  const perSpecies = space > 0 ? SPECIES_ESTIMATES[key.slice(0, space)] : undefined;
  if (perSpecies) return { key, label: `${key.slice(space + 1)}: ${perSpecies.label}`, value: perSpecies.format(x), known: true };
  return { key, label: key, value: typeof x === 'number' ? readableNumber(x) : String(x), known: false };
}

/** The table's rows: the case's estimates in the order above, then the per-species ones and any others as given. */
export function estimateRows(estimates: Readonly<Record<string, number>>): EstimateRow[] {
  const order = Object.keys(CASE_ESTIMATES);
  const keys = Object.keys(estimates).sort((a, b) => rank(order, a) - rank(order, b));
  return keys.map((k) => estimateRow(k, estimates[k]));
}

/** Position of a name in the table's order; names outside it come after, in their given order. */
function rank(order: string[], key: string): number {
  const i = order.indexOf(key);
  return i < 0 ? order.length : i;
}
