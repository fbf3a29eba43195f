// What the orchestrator tells each rank process in `configure`: the case, the decomposition and how to
// run; validated on arrival so a mismatch between orchestrator and rank versions fails with a clear error.
import { z } from 'zod';
import { parseCase, type Case } from '../common/case-schema.js';
import { TIMING_MODES, type TimingMode } from '../common/run-summary.js';
import type { Decomposition } from '../cluster/decomposition/types.js';
import type { GoOrder } from './rank-balance.js';

const int3 = z.tuple([z.number().int(), z.number().int(), z.number().int()]);

const decompositionSchema = z.object({
  method: z.enum(['slab', 'block', 'rcb']),
  grid: int3,
  boxes: z.array(z.object({ lo: int3, hi: int3 })),
});

/** A go kept by a checkpoint (rank-balance.ts GoOrder): a check's round to answer, or a split to take. */
const keptGoSchema = z.object({
  decomposition: decompositionSchema.nullable(),
  cellState: z.literal('full').optional(),
  roundBytes: z.number().int().min(1).optional(),
});

const payloadSchema = z.object({
  case: z.unknown(),
  decomposition: decompositionSchema,
  timing: z.enum(TIMING_MODES),
  detail: z.boolean(),
  warmupSteps: z.number().int().min(0),
  /** Milliseconds a rank waits for its peers' migrants before it gives up. */
  exchangeTimeoutMs: z.number().int().min(1),
  /** Rebalance when UN exceeds this many percent (checked after every submit); null: static decomposition. */
  rebalancePercent: z.number().min(0).nullable(),
  /** Rebalancing runs: cells per side of the coarse grid's blocks, over which the rank sums its counts after every submit. */
  balanceBlock: z.number().int().min(1).optional(),
  /** Folder of the run's checkpoints (written when run.checkpointEvery > 0); absent or null: none. */
  checkpoints: z.object({ folder: z.string().min(1) }).nullable().optional(),
  /**
   * Continue from this checkpoint folder (rank-<r>.bin) up to step endStep instead of filling the box; keptGo: the go
   * after the checkpoint's submit (a rebalancing run's), which the ranks take at the end of their first submit.
   */
  resume: z.object({ dir: z.string().min(1), endStep: z.number().int().min(0), keptGo: keptGoSchema.optional() }).nullable().optional(),
  /** The loop the batch-means blocks are planned for (a resumed run's is the original loop's); absent: the loop run now. */
  blockPlan: z.object({ from: z.number().int().min(0), steps: z.number().int().min(0) }).optional(),
});

/** The configure payload of a rank. */
export interface RankPayload {
  case: Case;
  decomposition: Decomposition;
  timing: TimingMode;
  detail: boolean;
  warmupSteps: number;
  exchangeTimeoutMs: number;
  rebalancePercent: number | null;
  balanceBlock?: number;
  checkpoints?: { folder: string } | null;
  resume?: { dir: string; endStep: number; keptGo?: GoOrder } | null;
  blockPlan?: { from: number; steps: number };
}

/** Parses `json` with `schema`; the error names what (`configure payload`, ...) and the field that is wrong. */
function parseWith<T>(schema: z.ZodType<T>, json: unknown, what: string): T {
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`${what}: ${issue.path.join('.') || '(root)'}: ${issue.message} (orchestrator and rank from different versions?)`);
  }
  return r.data;
}

/** Checks a configure payload; throws naming the field that is wrong. */
export function parseRankPayload(json: unknown): RankPayload {
  const data = parseWith(payloadSchema, json, 'configure payload');
  return { ...data, case: parseCase(data.case) };
}

/** Checks the decomposition a `go` message brings after a rebalance. */
export function parseDecomposition(json: unknown): Decomposition {
  return parseWith(decompositionSchema, json, 'go message decomposition');
}
