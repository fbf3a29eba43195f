// The end of a sampled multi-rank run: each rank turns its own cells' sampling state into fields and standard errors
// (in its process, while the others do theirs) and sends those planes; the orchestrator places them in global cell
// order. Every field of a cell is a function of that cell's sums, batch means and gas volume alone, so the placed
// fields are bitwise those of one rank. Before, each rank sent its raw state (every moment's 64-bit run and block sums
// and the batch means: 312 bytes a cell for one species) and the orchestrator folded and evaluated the whole grid
// alone (issue 24: "no multi-second gather or fold at the end of a run").
import type { Case } from '../common/case-schema.js';
import { FieldAccumulator, blankFields, type AllocF64, type SampleCounters } from './field-accumulator.js';
import type { Int3 } from '../cluster/decomposition/types.js';
import { fieldNamesOf, type Fields } from './fields.js';
import { PrefaultedArena, sharedOr } from './prefault.js';
import { SAMPLE_PARTS, partPlanes, sampleLayout, type SampleState } from './sample-buffers.js';
import { copyOwnedCells, ownedCellIds, type Subdomain } from './subdomain.js';
import type { FieldPlanesFile } from '../cluster/transport/field-planes-file.js';
import { placeFilePart, placeFilesOnThreads } from './place-planes.js';
import type { SolverTables } from './tables.js';

/** A rank's fields and standard errors over its cells (its local order): names, then the field planes followed by the error planes. */
export interface RankFields {
  names: readonly string[];
  planes: readonly Float64Array[];
  /** Threads that evaluated them. */
  threads: number;
}

/**
 * The fields and standard errors of a rank's cells from its sampling state and the run's counters, its cells split over
 * `threads` threads (field-evaluation-threads.ts); alloc: where the planes and the moment sums go (the rank's end-of-run
 * arena, shared memory), fresh arrays by default (one thread then).
 */
export async function rankFields(kase: Case, t: SolverTables, sub: Subdomain, state: SampleState, counters: SampleCounters, alloc?: AllocF64, threads = 1): Promise<RankFields> {
  const acc = new FieldAccumulator(kase, t, { globalIds: ownedCellIds(sub, kase.grid.cells) }, alloc);
  acc.state = state;
  acc.counters = { ...counters };
  const evaluated = await acc.evaluate(threads);
  const { fields, errors } = evaluated;
  const names = fieldNamesOf(fields);
  return { names, planes: [...names.map((k) => fields[k]!), ...names.map((k) => errors[k]!)], threads: evaluated.threads };
}

/** Fields (and as many error planes) a run of this case evaluates per cell. */
function fieldCount(kase: Case, t: SolverTables): number {
  return fieldNamesOf(blankFields(kase, t, 0)).length;
}

/**
 * The arena of a rank's end of run over n cells, prefaulted while its GPU works: the sampling state read back, the
 * moment sums, the fields and their errors (rankFields, with the state from endOfRunState).
 */
export function endOfRunArena(kase: Case, t: SolverTables, n: number): PrefaultedArena {
  const layout = sampleLayout(t);
  const stateBytes = 4 * n * SAMPLE_PARTS.reduce((sum, p) => sum + partPlanes(p, layout), 0);
  const sumsBytes = 8 * n * layout.moments * layout.species;
  return new PrefaultedArena(stateBytes + sumsBytes + 2 * 8 * n * fieldCount(kase, t));
}

/** Sampling-state arrays of n cells from an arena (the end-of-run read-back's destination: LoopOptions.sampleInto). */
export function endOfRunState(arena: PrefaultedArena, t: SolverTables, n: number): SampleState {
  const layout = sampleLayout(t);
  const u = (p: (typeof SAMPLE_PARTS)[number]) => arena.take(Uint32Array, partPlanes(p, layout) * n) as Uint32Array<ArrayBuffer>;
  return { runLo: u('runLo'), runHi: u('runHi'), blockLo: u('blockLo'), blockHi: u('blockHi'), welford: arena.take(Float32Array, partPlanes('welford', layout) * n) as Float32Array<ArrayBuffer> };
}

/** The arena of the orchestrator's placed planes (every field and its error over the whole grid), prefaulted during the run. */
export function placedFieldsArena(kase: Case, t: SolverTables): PrefaultedArena {
  return new PrefaultedArena(2 * 8 * t.nCells * fieldCount(kase, t));
}

/**
 * One rank's part of the placement: its subdomain and what rankFields gave it, the planes as they arrived in frames, or
 * the file they wait in (the same host: field-planes-file.ts).
 */
export interface PlacedPart {
  sub: Subdomain;
  names: readonly string[];
  planes?: readonly Float64Array[];
  file?: FieldPlanesFile;
}

/** Zeroed global planes (from alloc) of every field and its error: fields, errors, and plane k's target (fields first). */
function globalPlanes(nCells: number, names: readonly string[], alloc: AllocF64): { fields: Fields; errors: Fields; targets: Float64Array[] } {
  const fields: Record<string, Float64Array> = {};
  const errors: Record<string, Float64Array> = {};
  for (const name of names) {
    fields[name] = alloc(nCells);
    errors[name] = alloc(nCells);
  }
  return { fields: fields as Fields, errors: errors as Fields, targets: [...names.map((n) => fields[n]), ...names.map((n) => errors[n])] };
}

/** Checks that every rank sent the fields rank 0 sent, and planes of its cell count. */
function checkParts(parts: readonly PlacedPart[], names: readonly string[]): void {
  parts.forEach((p, r) => {
    if (p.names.join(',') !== names.join(',')) throw new Error(`internal: rank ${r} sent the fields ${p.names.join(', ')} where rank 0 sent ${names.join(', ')}`);
    if (p.file) return;
    const planes = p.planes ?? [];
    if (planes.length !== 2 * names.length) throw new Error(`internal: rank ${r} sent ${planes.length} field planes for ${names.length} fields (and their errors)`);
    planes.forEach((plane) => {
      if (plane.length !== p.sub.nLocal) throw new Error(`internal: rank ${r} sent a field plane of ${plane.length} cells for its ${p.sub.nLocal}`);
    });
  });
}

/** Places one rank's frames or file into the global planes (targets[k]: plane k, fields then errors). */
function placePart(grid: Int3, p: PlacedPart, targets: readonly Float64Array[]): void {
  if (p.file) placeFilePart(grid, p.sub, p.file, targets);
  else (p.planes ?? []).forEach((plane, k) => copyOwnedCells(plane, p.sub, grid, targets[k]));
}

/**
 * Every rank's field and error planes placed in global cell order (each rank's cells taken from its own planes) into
 * planes from alloc (fresh by default); a part read from a file goes straight to its place where its cells are one run
 * of global ids (a box spanning x and y), through one scratch plane otherwise.
 */
export function placeRankFields(grid: Int3, parts: readonly PlacedPart[], alloc: AllocF64 = (n) => new Float64Array(n)): { fields: Fields; errors: Fields } {
  const names = parts[0]?.names ?? [];
  checkParts(parts, names);
  const { fields, errors, targets } = globalPlanes(grid[0] * grid[1] * grid[2], names, alloc);
  for (const p of parts) placePart(grid, p, targets);
  return { fields, errors };
}

/**
 * placeRankFields with the ranks' files read on worker threads at once (place-planes.ts), each into its own
 * cells of the global planes in shared memory (alloc's, else fresh shared memory); frames, and a single file, on this
 * thread. Bitwise the same planes: every cell comes from the one rank that owns it.
 */
export async function placeRankFieldsOnThreads(grid: Int3, parts: readonly PlacedPart[], threads: number, alloc: AllocF64 = (n) => new Float64Array(n)): Promise<{ fields: Fields; errors: Fields }> {
  const files = parts.filter((p) => p.file);
  if (threads < 2 || files.length < 2) return placeRankFields(grid, parts, alloc);
  const names = parts[0]?.names ?? [];
  checkParts(parts, names);
  const { fields, errors, targets } = globalPlanes(grid[0] * grid[1] * grid[2], names, (n) => sharedOr(alloc(n)));
  const reading = placeFilesOnThreads(grid, files.map((p) => ({ sub: p.sub, file: p.file! })), targets, threads);
  reading.catch(() => undefined); // awaited below, after the frames are placed here
  for (const p of parts) if (!p.file) placePart(grid, p, targets);
  await reading;
  return { fields, errors };
}
