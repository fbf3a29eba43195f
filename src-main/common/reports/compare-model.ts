// Comparison of runs against the first: case differences, throughput and per-phase AVG x Call side by side
// with ratios, per-cell field differences in units of their combined standard error, and per body (matched
// by name) the Cd, Cl, drag, lift and heat transfer with ratios.
import { fieldNamesOf, type FieldName } from '../field-names.js';
import type { CaseRecord, FieldSet, PhaseRecord, RunRecord } from '../run-record.js';
import { caseDifferences, type CaseDifference } from './case-fields.js';
import { fieldZStats, Z_LIMIT, DIFFERS_FRACTION, type FieldZStats } from './field-z.js';
import { buildPhaseTable } from './phase-table.js';
import { bodyLabels, COMPARED_BODY_KEYS, surfaceLoadsOf, type BodyLoads, type ComparedBodyKey } from './surface-loads.js';

/** What one run contributes to a comparison. */
export interface CompareInput {
  run: RunRecord;
  caseRecord: CaseRecord;
  phases: PhaseRecord[];
  fields: FieldSet | null;
}

/** A value per run and its ratio to the first run's (null where either is missing or the first is 0). */
export interface SideBySide {
  values: (number | null)[];
  ratios: (number | null)[];
}

/** Field differences of one run against the first run. */
export interface FieldComparison {
  /** Index of the run in `runs` (>= 1). */
  run: number;
  /** Why the fields were not compared (no fields, different grids), or null. */
  skippedReason: string | null;
  /** Per field, z = (first - this) / sqrt(se_first^2 + se_this^2) summarised over cells. */
  fields: Partial<Record<FieldName, FieldZStats>>;
}

/** One body's loads in each run: null values where the body is absent from a run. */
export type BodyComparison = { body: string; present: boolean[] } & Record<ComparedBodyKey, SideBySide>;

/** Surface loads side by side. */
export interface SurfaceComparison {
  /** Per run: whether it has surface results at all (runs recorded before surfaces were sampled do not). */
  sampled: boolean[];
  /** Bodies matched by name across runs, in order of first appearance (a repeated name in a run: "name (2)"). */
  bodies: BodyComparison[];
}

/** The comparison of two or more runs. */
export interface Comparison {
  kind: 'dsmc-comparison';
  version: 1;
  zLimit: number;
  differsFraction: number;
  runs: { id: number; caseName: string; seed: number; status: string; startedAt: string; adapter: string; tags: string[] }[];
  caseDifferences: CaseDifference[];
  throughput: SideBySide;
  /** Per phase: AVG x Call (seconds) per run, with ratios to the first run. */
  phases: { phase: string; avgPerCall: SideBySide }[];
  fieldComparisons: FieldComparison[];
  /** Per-body loads side by side; null when no run has surface results. */
  surface: SurfaceComparison | null;
}

/** Values side by side with their ratios to the first. */
function sideBySide(values: (number | null)[]): SideBySide {
  const first = values[0];
  return { values, ratios: values.map((v) => (v === null || first === null || first === 0 ? null : v / first)) };
}

/** Field z statistics of `other` against `first`, or the reason they cannot be compared. */
function compareFields(first: FieldSet | null, other: FieldSet | null, index: number): FieldComparison {
  const skip = (why: string): FieldComparison => ({ run: index, skippedReason: why, fields: {} });
  if (!first) return skip('the first run has no sampled fields');
  if (!other) return skip('this run has no sampled fields');
  if (first.cells.join('x') !== other.cells.join('x')) return skip(`the grids differ (${first.cells.join('x')} and ${other.cells.join('x')} cells)`);
  const fields: Partial<Record<FieldName, FieldZStats>> = {};
  // the internal temperatures and the species fields only where both runs have them
  for (const name of fieldNamesOf(first.values)) {
    const [va, ea, vb, eb] = [first.values[name], first.errors[name], other.values[name], other.errors[name]];
    if (!va || !ea || !vb || !eb) continue;
    fields[name] = fieldZStats(va, ea, vb, eb);
  }
  return { run: index, skippedReason: null, fields };
}

/** Per-body Cd, Cl, drag, lift and heat transfer of each run, bodies matched by name; null when no run has surface results. */
function compareSurfaces(inputs: CompareInput[]): SurfaceComparison | null {
  const loads = inputs.map((x) => surfaceLoadsOf(x.run.summary?.surface, x.caseRecord.json));
  if (loads.every((l) => l === null)) return null;
  const byLabel = loads.map((l) => {
    const bodies = l?.bodies ?? [];
    const labels = bodyLabels(bodies.map((b) => b.name));
    return new Map<string, BodyLoads>(labels.map((label, i) => [label, bodies[i]]));
  });
  const names: string[] = [];
  for (const m of byLabel) for (const label of m.keys()) if (!names.includes(label)) names.push(label);
  return {
    sampled: loads.map((l) => l !== null),
    bodies: names.map((body) => {
      const found = byLabel.map((m) => m.get(body) ?? null);
      const row = { body, present: found.map((b) => b !== null) } as BodyComparison;
      for (const key of COMPARED_BODY_KEYS) row[key] = sideBySide(found.map((b) => (b ? b[key] : null)));
      return row;
    }),
  };
}

/** Compares runs[1..] with runs[0]. */
export function buildComparison(inputs: CompareInput[]): Comparison {
  if (inputs.length < 2) throw new Error('compare needs at least two runs, e.g. dsmc compare 3 4');
  const tables = inputs.map((x) => buildPhaseTable(x.phases, { loopSeconds: x.run.summary?.seconds ?? null, meanParticles: null, particleSteps: null }));
  const phaseNames: string[] = [];
  for (const t of tables) for (const r of t.rows) if (!phaseNames.includes(r.phase)) phaseNames.push(r.phase);
  return {
    kind: 'dsmc-comparison',
    version: 1,
    zLimit: Z_LIMIT,
    differsFraction: DIFFERS_FRACTION,
    runs: inputs.map(({ run }) => ({
      id: run.id, caseName: run.caseName, seed: run.seed, status: run.status, startedAt: run.startedAt,
      adapter: run.adapter.description, tags: [...run.tags],
    })),
    caseDifferences: caseDifferences(inputs.map((x) => x.caseRecord.json)),
    throughput: sideBySide(inputs.map((x) => x.run.summary?.particleStepsPerSecond ?? null)),
    phases: phaseNames.map((phase) => ({
      phase,
      avgPerCall: sideBySide(tables.map((t) => t.rows.find((r) => r.phase === phase)?.avgPerCallSeconds ?? null)),
    })),
    fieldComparisons: inputs.slice(1).map((x, i) => compareFields(inputs[0].fields, x.fields, i + 1)),
    surface: compareSurfaces(inputs),
  };
}
