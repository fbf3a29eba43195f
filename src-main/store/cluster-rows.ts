// SQL of the cluster half of the run database: Slurm cluster profiles, the ranks of a run with their hosts, and
// how a run was launched (launcher, job id, profile). Every write is one transaction; inputs are validated first.
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { clusterProfileSchema, parseClusterProfile, type ClusterProfile } from '../cluster/slurm/profile.js';
import { checkInput } from './input-schemas.js';

/** One rank of a run as recorded. */
export interface RankRecord {
  rank: number;
  hostname: string;
  gpu: string;
  pinned: boolean;
  pid: number | null;
  adapterDescription: string;
}

/** How a run was launched. */
export interface LaunchRecord {
  launcher: 'local' | 'slurm';
  jobId: string | null;
  profile: string | null;
}

export const rankRecordSchema = z.object({
  rank: z.number().int().min(0),
  hostname: z.string().min(1),
  gpu: z.string(),
  pinned: z.boolean(),
  pid: z.number().int().nullable(),
  adapterDescription: z.string(),
}).strict();

export const launchRecordSchema = z.object({
  launcher: z.enum(['local', 'slurm']),
  jobId: z.string().min(1).nullable(),
  profile: z.string().min(1).nullable(),
}).strict();

/** Adds or replaces a profile (validated; errors name each bad field). */
export function saveProfile(db: Database.Database, input: unknown, now: string): ClusterProfile {
  const profile = parseClusterProfile(input);
  db.transaction(() => {
    db.prepare(`INSERT INTO cluster_profiles (name, json, created_at, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at`)
      .run(profile.name, JSON.stringify(profile), now, now);
  }).immediate();
  return profile;
}

/** Every profile, by name. */
export function listProfiles(db: Database.Database): ClusterProfile[] {
  const rows = db.prepare('SELECT json FROM cluster_profiles ORDER BY name').all() as { json: string }[];
  return rows.map((r) => clusterProfileSchema.parse(JSON.parse(r.json)));
}

/** The profile of that name, or null. */
export function getProfile(db: Database.Database, name: string): ClusterProfile | null {
  const row = db.prepare('SELECT json FROM cluster_profiles WHERE name = ?').get(name) as { json: string } | undefined;
  return row ? clusterProfileSchema.parse(JSON.parse(row.json)) : null;
}

/** Removes a profile; false when there was none of that name. */
export function removeProfile(db: Database.Database, name: string): boolean {
  return db.transaction(() => db.prepare('DELETE FROM cluster_profiles WHERE name = ?').run(name).changes > 0).immediate();
}

/** Records the ranks of a run (and how it was launched), all or none; recording again replaces them. */
export function recordRanks(db: Database.Database, runId: number, ranks: RankRecord[], launch: LaunchRecord | null): void {
  const rs = checkInput(rankRecordSchema.array().min(1), ranks, `recordRanks(run ${runId}) ranks`);
  const l = launch === null ? null : checkInput(launchRecordSchema, launch, `recordRanks(run ${runId}) launch`);
  const add = db.prepare('INSERT INTO run_ranks (run_id, rank, hostname, gpu, pinned, pid, adapter_description) VALUES (?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    if (!db.prepare('SELECT 1 FROM runs WHERE id = ?').get(runId)) throw new Error(`recordRanks: there is no run ${runId}; create the run first`);
    db.prepare('DELETE FROM run_ranks WHERE run_id = ?').run(runId);
    for (const r of rs) add.run(runId, r.rank, r.hostname, r.gpu, r.pinned ? 1 : 0, r.pid, r.adapterDescription);
    if (l) {
      db.prepare('INSERT INTO run_launches (run_id, launcher, job_id, profile) VALUES (?, ?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET launcher = excluded.launcher, job_id = excluded.job_id, profile = excluded.profile')
        .run(runId, l.launcher, l.jobId, l.profile);
    }
  }).immediate();
}

/** The recorded ranks of a run, by rank (empty for one-rank runs). */
export function getRanks(db: Database.Database, runId: number): RankRecord[] {
  const rows = db.prepare('SELECT rank, hostname, gpu, pinned, pid, adapter_description FROM run_ranks WHERE run_id = ? ORDER BY rank').all(runId) as
    { rank: number; hostname: string; gpu: string; pinned: number; pid: number | null; adapter_description: string }[];
  return rows.map((r) => ({ rank: r.rank, hostname: r.hostname, gpu: r.gpu, pinned: r.pinned === 1, pid: r.pid, adapterDescription: r.adapter_description }));
}

/** How a run was launched, or null (local runs before version 4, one-rank runs). */
export function getLaunch(db: Database.Database, runId: number): LaunchRecord | null {
  const row = db.prepare('SELECT launcher, job_id, profile FROM run_launches WHERE run_id = ?').get(runId) as { launcher: 'local' | 'slurm'; job_id: string | null; profile: string | null } | undefined;
  return row ? { launcher: row.launcher, jobId: row.job_id, profile: row.profile } : null;
}
