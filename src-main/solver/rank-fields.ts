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
import { PrefaultedArena } from './prefault.js';
import { SAMPLE_PARTS, partPlanes, sampleLayout, type SampleState } from './sample-buffers.js';
import { copyOwnedCells, isLocalDense, ownedCellIds, type Subdomain } from './subdomain.js';
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
 * `readPlanes` where they wait in a file (the same host: field-planes-file.ts), which hands plane k to where into(k)
 * says and calls placed(k, plane) after each.
 */
export interface PlacedPart {
  sub: Subdomain;
  names: readonly string[];
  planes?: readonly Float64Array[];
  readPlanes?: (into: (k: number) => Float64Array, placed: (k: number, plane: Float64Array) => void) => void;
}

/**
 * Every rank's field and error planes placed in global cell order (each rank's cells taken from its own planes) into
 * planes from alloc (fresh by default); a part read from a file goes straight to its place where its cells are one run
 * of global ids (a box spanning x and y), through one scratch plane otherwise.
 */
export function placeRankFields(grid: Int3, parts: readonly PlacedPart[], alloc: AllocF64 = (n) => new Float64Array(n)): { fields: Fields; errors: Fields } {
  const nCells = grid[0] * grid[1] * grid[2];
  const names = parts[0]?.names ?? [];
  const fields: Record<string, Float64Array> = {};
  const errors: Record<string, Float64Array> = {};
  for (const name of names) {
    fields[name] = alloc(nCells);
    errors[name] = alloc(nCells);
  }
  // plane k of a rank: the fields' planes, then their errors'
  const target = (k: number) => (k < names.length ? fields[names[k]] : errors[names[k - names.length]]);
  let scratch: Float64Array | null = null;
  parts.forEach((p, r) => {
    if (p.names.join(',') !== names.join(',')) throw new Error(`internal: rank ${r} sent the fields ${p.names.join(', ')} where rank 0 sent ${names.join(', ')}`);
    const n = p.sub.nLocal;
    if (p.readPlanes) {
      const dense = isLocalDense(p.sub, grid);
      p.readPlanes(
        (k) => (dense ? target(k).subarray(p.sub.cellBase, p.sub.cellBase + n) : (scratch = scratch?.length === n ? scratch : new Float64Array(n))),
        (k, plane) => { if (!dense) copyOwnedCells(plane, p.sub, grid, target(k)); },
      );
      return;
    }
    const planes = p.planes ?? [];
    if (planes.length !== 2 * names.length) throw new Error(`internal: rank ${r} sent ${planes.length} field planes for ${names.length} fields (and their errors)`);
    planes.forEach((plane) => {
      if (plane.length !== n) throw new Error(`internal: rank ${r} sent a field plane of ${plane.length} cells for its ${n}`);
    });
    planes.forEach((plane, k) => copyOwnedCells(plane, p.sub, grid, target(k)));
  });
  return { fields: fields as Fields, errors: errors as Fields };
}
