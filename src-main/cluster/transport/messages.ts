// The messages between the orchestrator and the rank processes, and between ranks: one zod schema per kind,
// a discriminated union on `type`. A message travels as one JSON header frame plus zero or more binary frames
// (see message-codec.ts); only the header is described here.
import { z } from 'zod';

const rank = z.number().int().min(0);
const count = z.number().int().min(0);
const seconds = z.number().min(0);

/** The adapter a rank runs on, as the run records it (null before the rank opened its device). */
export const adapterInfoSchema = z.looseObject({ description: z.string(), backend: z.string().optional(), software: z.boolean().optional(), maxBinding: count.optional() });

/** rank -> orchestrator: first message of a rank; says where its peer PULL socket listens. */
export const helloSchema = z.object({
  type: z.literal('hello'),
  rank,
  worldSize: z.number().int().min(1),
  pid: z.number().int().min(1),
  hostname: z.string().min(1),
  adapter: adapterInfoSchema.nullable(),
  peerAddress: z.string().min(1),
});

/** orchestrator -> rank: the run's setup (case, decomposition: any JSON) and every rank's peer address; peerFolder,
 * when every rank runs on the orchestrator's host, is the private folder of the same-host fast path (peer-files.ts). */
export const configureSchema = z.object({
  type: z.literal('configure'),
  payload: z.json(),
  peers: z.record(z.string().regex(/^\d+$/, 'peer keys are rank numbers'), z.string().min(1)),
  peerFolder: z.string().min(1).optional(),
});

/**
 * orchestrator -> rank: the case, sent as soon as every rank said hello, before `configure`: each rank builds its solver
 * tables (seconds for a case with bodies) while the orchestrator builds its own and decides the split. `configure`
 * carries the same case; a rank that got no `prepare` builds its tables then.
 */
export const prepareSchema = z.object({ type: z.literal('prepare'), case: z.json() });

/** rank -> orchestrator: configured and connected to its peers. */
export const readySchema = z.object({ type: z.literal('ready'), rank });

/** rank -> orchestrator: one step (or batch of steps) done; phase times in seconds. */
export const stepReportSchema = z.object({
  type: z.literal('step-report'),
  rank,
  step: count,
  particles: count,
  phases: z.record(z.string(), seconds),
});

/** One step's statistics on one rank (the solver's StepStats). */
const stepStatsSchema = z.object({
  step: count, particlesBefore: count, injected: count, particlesAfter: count, collisions: count, candidates: count,
  sent: count.optional(), received: count.optional(), exchangeSeconds: seconds.optional(),
  reactions: count.optional(), products: count.optional(),
});

/** rank -> orchestrator: one submit's step statistics (no frames: the sampled sums stay on the rank's GPU). */
export const batchSchema = z.object({
  type: z.literal('batch'),
  rank,
  /** Submit number from 0. */
  index: count,
  steps: z.array(stepStatsSchema),
  passes: count,
  particles: count,
  /** Seconds this rank's GPU worked in this submit (its passes' times; absent with timing off): balancing by time. */
  gpuSeconds: seconds.optional(),
  /** Its young generation's fill at the submit's end, 0-1 (orchestrator/young-collections.ts). */
  young: z.number().min(0).max(1).optional(),
  /** Bytes in use in its old generation at the submit's end (orchestrator/old-collections.ts). */
  old: count.optional(),
  frameBytes: z.array(count),
});

/** The submit a go follows, as a rank's answers name it: -1 for the go a resumed run's checkpoint kept (balance-coordinator.ts). */
const goIndex = z.number().int().min(-1);

/**
 * rank -> orchestrator (rebalancing runs): 'coarse' after every submit `index`, one frame, its particle counts and the
 * sums of their squares over the blocks of the coarse grid (u32, the whole coarse grid, packCoarseSums); 'full' when
 * the go after submit `index` asks for it, one frame, the per-cell counts (u32) of its local cells (their collision
 * state the ranks hand each other after a re-split: cell-handover.ts).
 */
export const cellStateSchema = z.object({ type: z.literal('cell-state'), rank, index: goIndex, kind: z.enum(['coarse', 'full']), frameBytes: z.array(count) });

/**
 * orchestrator -> rank (rebalancing runs): the decision after submit `index`, which the rank takes at the end of
 * submit index + 1: a check's round to answer (cell-state), a new decomposition to move to, or neither (no frames;
 * balance-coordinator.ts, rank-balance.ts).
 */
export const goSchema = z.object({
  type: z.literal('go'), index: count, decomposition: z.json().nullable(), frameBytes: z.array(count),
  // 'full': send every cell's count (cell-state, under this go's index); the split, if one pays, comes in the next go
  cellState: z.literal('full').optional(),
  // with a decomposition: bytes of migrant records per relayout round (the same for every rank: half the smallest
  // binding of their adapters)
  roundBytes: count.optional(),
  // with a decomposition: the particles rank r sends rank d in the relayout, sendsTo[r][d], from the counts the split
  // was made from (a submit before the relayout's own): each rank readies its links for them as soon as the go arrives
  sendsTo: z.array(z.array(count)).optional(),
});

/**
 * rank -> rank: particles leaving `from` for `to` at `step`; the arrays travel as binary frames of frameBytes, or
 * (same-host fast path) one after another in the link's file slot `file.slot` with no binary frames, never both.
 * seq numbers the messages of the link from 0; ack says how many of the receiver's messages the sender has handed
 * to its caller (a gapless prefix), which tells the receiver when a file slot may be written again.
 */
export const migrateSchema = z.object({
  type: z.literal('migrate'),
  from: rank,
  to: rank,
  step: count,
  particles: count,
  frameBytes: z.array(count),
  seq: count.optional(),
  ack: count.optional(),
  file: z.strictObject({ slot: z.union([z.literal(0), z.literal(1)]) }).optional(),
});

/**
 * orchestrator -> rank: take a minor garbage collection at the end of submit `index`, as every rank does
 * (young-collections.ts), or with `major` a major one (old-collections.ts).
 */
export const collectSchema = z.object({ type: z.literal('collect'), index: count, major: z.boolean().optional() });

/** rank -> orchestrator: finished; the summary is any JSON. */
export const doneSchema = z.object({ type: z.literal('done'), rank, summary: z.json(), frameBytes: z.array(count).optional() });

/** orchestrator -> rank (live view of a sampling run): send the sums of these global cells (one u32 frame) after your next submit. */
export const planeRequestSchema = z.object({ type: z.literal('plane-request'), id: count, frameBytes: z.array(count) });

/**
 * rank -> orchestrator: the answer to plane request `id`: per requested cell the rank's run and open-block sums
 * (sample_gather's layout; zero for cells it does not own) as one frame, and its sampling passes so far.
 */
export const planeSumsSchema = z.object({ type: z.literal('plane-sums'), rank, id: count, samples: count, frameBytes: z.array(count) });

/**
 * rank -> orchestrator after a `go` with a new decomposition (sampling runs): its sampling state over its old cells, and
 * orchestrator -> rank: its state over its new cells; the five parts (sample-buffers.ts SAMPLE_PARTS) as five frames.
 */
export const sampleStateSchema = z.object({ type: z.literal('sample-state'), index: goIndex, rank: rank.optional(), frameBytes: z.array(count) });

/** rank -> orchestrator: the rank failed and says why before exiting. */
export const errorSchema = z.object({
  type: z.literal('error'),
  rank,
  message: z.string(),
  lastLines: z.array(z.string()),
});

/** orchestrator -> rank: stop after the current step and exit cleanly. */
export const stopSchema = z.object({ type: z.literal('stop'), reason: z.string().optional() });

/**
 * Stop and keep (orchestrator/stop-and-keep.ts, solver/rank-keep-stop.ts): orchestrator -> rank `keep-request`: say
 * the last submit you will run before waiting for the decision; rank -> orchestrator `keep-point`: that submit's
 * number (from 0; the one in progress or about to start); orchestrator -> rank `keep-at`: the decision, the largest
 * keep-point of all ranks: run through submit `index`, then end the loop and report `done` as at a normal end.
 */
export const keepRequestSchema = z.object({ type: z.literal('keep-request') });
export const keepPointSchema = z.object({ type: z.literal('keep-point'), rank, index: count });
export const keepAtSchema = z.object({ type: z.literal('keep-at'), index: count });

/** rank -> orchestrator: still alive (sent on a timer, so a blocked event loop stops it). */
export const heartbeatSchema = z.object({ type: z.literal('heartbeat'), rank, step: count.optional() });

/** orchestrator -> rank: its `done` arrived (the rank may exit at once; its last messages are out). */
export const doneAckSchema = z.object({ type: z.literal('done-ack') });

/** orchestrator -> rank: its `error` arrived and the run is marked failed with it (the rank may exit at once). */
export const errorAckSchema = z.object({ type: z.literal('error-ack') });

/** Every message kind, by its `type` (dispatch table for validation). */
export const MESSAGE_SCHEMAS = {
  hello: helloSchema,
  configure: configureSchema,
  prepare: prepareSchema,
  ready: readySchema,
  'step-report': stepReportSchema,
  migrate: migrateSchema,
  done: doneSchema,
  'sample-state': sampleStateSchema,
  'plane-request': planeRequestSchema,
  'plane-sums': planeSumsSchema,
  error: errorSchema,
  stop: stopSchema,
  heartbeat: heartbeatSchema,
  batch: batchSchema,
  'cell-state': cellStateSchema,
  go: goSchema,
  'done-ack': doneAckSchema,
  'error-ack': errorAckSchema,
  'keep-request': keepRequestSchema,
  'keep-point': keepPointSchema,
  'keep-at': keepAtSchema,
  collect: collectSchema,
} as const;

/** Any message (header only). */
export const clusterMessageSchema = z.discriminatedUnion('type', [
  helloSchema, configureSchema, readySchema, stepReportSchema, migrateSchema, doneSchema, errorSchema, stopSchema,
  heartbeatSchema, batchSchema, cellStateSchema, goSchema, doneAckSchema, errorAckSchema, sampleStateSchema, planeRequestSchema, planeSumsSchema,
  keepRequestSchema, keepPointSchema, keepAtSchema, collectSchema, prepareSchema,
]);

export type ClusterMessage = z.infer<typeof clusterMessageSchema>;
export type MessageType = keyof typeof MESSAGE_SCHEMAS;
export type MessageOf<K extends MessageType> = Extract<ClusterMessage, { type: K }>;
export type AdapterInfo = z.infer<typeof adapterInfoSchema>;
export type HelloMessage = MessageOf<'hello'>;
export type ConfigureMessage = MessageOf<'configure'>;
export type MigrateMessage = MessageOf<'migrate'>;

/** Kinds a rank sends to the orchestrator. */
export const RANK_TO_ORCHESTRATOR = ['hello', 'ready', 'step-report', 'batch', 'cell-state', 'sample-state', 'plane-sums', 'done', 'error', 'heartbeat', 'keep-point'] as const;
/** Kinds the orchestrator sends to a rank. */
export const ORCHESTRATOR_TO_RANK = ['prepare', 'configure', 'stop', 'go', 'sample-state', 'plane-request', 'done-ack', 'error-ack', 'keep-request', 'keep-at', 'collect'] as const;
/** Kinds one rank sends to another. */
export const RANK_TO_RANK = ['migrate'] as const;

export type RankToOrchestratorMessage = MessageOf<(typeof RANK_TO_ORCHESTRATOR)[number]>;
export type OrchestratorToRankMessage = MessageOf<(typeof ORCHESTRATOR_TO_RANK)[number]>;
export type RankToRankMessage = MessageOf<(typeof RANK_TO_RANK)[number]>;

/** True when `type` names a known message kind. */
export function isMessageType(type: unknown): type is MessageType {
  return typeof type === 'string' && Object.hasOwn(MESSAGE_SCHEMAS, type);
}
