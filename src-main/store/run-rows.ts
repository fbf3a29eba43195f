// SQL rows of the runs query and their mapping to RunRecord.
import type { RunRecord, RunStatus } from '../common/run-record.js';
import type { RunSummary } from '../common/run-summary.js';

/** The SELECT every run read goes through (callers append WHERE / ORDER BY). */
export const RUN_SELECT = `
  SELECT r.id, p.name AS project, r.case_id, c.name AS case_name, c.hash AS case_hash, r.status, r.reason,
         r.started_at, r.ended_at, r.seed, r.ranks, r.gpus, r.adapter_description, r.backend, r.product_version,
         r.summary, r.notes,
         coalesce((SELECT max(s.step) FROM run_steps s WHERE s.run_id = r.id), 0) AS last_step,
         (SELECT group_concat(tag, ',') FROM (SELECT t.tag FROM run_tags t WHERE t.run_id = r.id ORDER BY t.tag)) AS tags
  FROM runs r JOIN projects p ON p.id = r.project_id JOIN cases c ON c.id = r.case_id`;

/** One row of RUN_SELECT. */
export interface RunRow {
  id: number;
  project: string;
  case_id: number;
  case_name: string;
  case_hash: string;
  status: RunStatus;
  reason: string | null;
  started_at: string;
  ended_at: string | null;
  seed: number;
  ranks: number;
  gpus: number;
  adapter_description: string;
  backend: string;
  product_version: string;
  summary: string | null;
  notes: string;
  last_step: number;
  tags: string | null;
}

/** A RunRecord from its row. */
export function runFromRow(r: RunRow): RunRecord {
  return {
    id: r.id,
    project: r.project,
    caseId: r.case_id,
    caseName: r.case_name,
    caseHash: r.case_hash,
    status: r.status,
    reason: r.reason,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    seed: r.seed,
    ranks: r.ranks,
    gpus: r.gpus,
    adapter: { description: r.adapter_description, backend: r.backend },
    productVersion: r.product_version,
    summary: r.summary === null ? null : (JSON.parse(r.summary) as RunSummary),
    lastStep: r.last_step,
    tags: r.tags ? r.tags.split(',') : [],
    notes: r.notes,
  };
}
