// The schema of the run database as an ordered list of migrations; PRAGMA user_version holds how many
// have run. Never edit a migration that has shipped: add a new one at the end.
import type Database from 'better-sqlite3';

/** One step of the schema: `version` is the user_version after it has run. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'projects, cases, runs, phases, steps, totals, fields',
    sql: `
      CREATE TABLE projects (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1))
      );
      CREATE TABLE cases (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        json TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        project_id INTEGER NOT NULL REFERENCES projects(id),
        case_id INTEGER NOT NULL REFERENCES cases(id),
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
        reason TEXT,
        started_at TEXT NOT NULL,
        ended_at TEXT,
        seed INTEGER NOT NULL,
        ranks INTEGER NOT NULL,
        gpus INTEGER NOT NULL,
        adapter_description TEXT NOT NULL,
        backend TEXT NOT NULL,
        product_version TEXT NOT NULL,
        pid INTEGER,
        hostname TEXT,
        summary TEXT
      );
      CREATE INDEX runs_by_project ON runs(project_id);
      CREATE INDEX runs_by_case ON runs(case_id);
      CREATE INDEX runs_by_status ON runs(status);
      CREATE TABLE run_phases (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        rank INTEGER NOT NULL,
        phase TEXT NOT NULL,
        calls INTEGER NOT NULL,
        total REAL NOT NULL,
        min REAL NOT NULL,
        max REAL NOT NULL,
        UNIQUE (run_id, rank, phase)
      ); -- a rowid table: rowid keeps the phases in loop order
      CREATE TABLE run_steps (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        particles INTEGER NOT NULL,
        injected INTEGER NOT NULL,
        collisions INTEGER NOT NULL,
        candidates INTEGER NOT NULL,
        PRIMARY KEY (run_id, step)
      ) WITHOUT ROWID;
      CREATE TABLE run_totals (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        particles INTEGER NOT NULL,
        kinetic_energy REAL NOT NULL,
        momentum_x REAL NOT NULL,
        momentum_y REAL NOT NULL,
        momentum_z REAL NOT NULL,
        PRIMARY KEY (run_id, step)
      ) WITHOUT ROWID;
      CREATE TABLE run_fields (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        cells_x INTEGER NOT NULL,
        cells_y INTEGER NOT NULL,
        cells_z INTEGER NOT NULL,
        cell_size_x REAL NOT NULL,
        cell_size_y REAL NOT NULL,
        cell_size_z REAL NOT NULL,
        samples INTEGER NOT NULL,
        blocks INTEGER NOT NULL
      );
      -- one row per field name: little-endian Float64 values and standard errors, one per cell
      CREATE TABLE run_field_arrays (
        run_id INTEGER NOT NULL REFERENCES run_fields(run_id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        field_values BLOB NOT NULL,
        field_errors BLOB NOT NULL,
        PRIMARY KEY (run_id, name)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'tags and notes on runs',
    sql: `
      ALTER TABLE runs ADD COLUMN notes TEXT NOT NULL DEFAULT '';
      CREATE TABLE run_tags (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        tag TEXT NOT NULL,
        PRIMARY KEY (run_id, tag)
      ) WITHOUT ROWID;
      CREATE INDEX run_tags_by_tag ON run_tags(tag);
    `,
  },
  {
    version: 3,
    name: 'scaling studies and per-rank step series',
    sql: `
      -- the case is kept by name and hash, not by reference: deleting the last run of a case deletes the case
      CREATE TABLE studies (
        id INTEGER PRIMARY KEY,
        project_id INTEGER NOT NULL REFERENCES projects(id),
        name TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('strong', 'weak')),
        case_name TEXT NOT NULL,
        case_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX studies_by_project ON studies(project_id);
      -- the runs of a study (v5 drops the one-per-GPU-count rule); deleting a run or a study removes the row
      CREATE TABLE study_runs (
        study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        gpus INTEGER NOT NULL CHECK (gpus > 0),
        position INTEGER NOT NULL,
        PRIMARY KEY (study_id, run_id),
        UNIQUE (study_id, gpus)
      ) WITHOUT ROWID;
      CREATE INDEX study_runs_by_run ON study_runs(run_id);
      -- per rank and step of a multi-rank run: particles owned after the step, migrated particles, host wait
      CREATE TABLE run_rank_steps (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        particles INTEGER NOT NULL,
        sent INTEGER NOT NULL,
        received INTEGER NOT NULL,
        wait_seconds REAL NOT NULL,
        PRIMARY KEY (run_id, step, rank)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: 'cluster profiles and the ranks of a run with their hosts',
    sql: `
      -- one Slurm cluster profile per name; json is the validated profile (src-main/cluster/slurm/profile.ts)
      CREATE TABLE cluster_profiles (
        name TEXT PRIMARY KEY,
        json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) WITHOUT ROWID;
      -- per rank of a multi-rank run: the host it ran on (from its hello), its GPU label, pid and adapter
      CREATE TABLE run_ranks (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        rank INTEGER NOT NULL CHECK (rank >= 0),
        hostname TEXT NOT NULL,
        gpu TEXT NOT NULL,
        pinned INTEGER NOT NULL CHECK (pinned IN (0, 1)),
        pid INTEGER,
        adapter_description TEXT NOT NULL,
        PRIMARY KEY (run_id, rank)
      ) WITHOUT ROWID;
      -- how a run was launched when not as local processes: the launcher, its job id and the cluster profile
      CREATE TABLE run_launches (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        launcher TEXT NOT NULL CHECK (launcher IN ('local', 'slurm')),
        job_id TEXT,
        profile TEXT
      );
    `,
  },
  {
    version: 5,
    name: 'repeated runs per GPU count in a study',
    sql: `
      -- a study may hold several runs on one GPU count (repeats: its report uses the median); the table is
      -- rebuilt without UNIQUE (study_id, gpus), its rows kept
      CREATE TABLE study_runs_v5 (
        study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        gpus INTEGER NOT NULL CHECK (gpus > 0),
        position INTEGER NOT NULL,
        PRIMARY KEY (study_id, run_id)
      ) WITHOUT ROWID;
      INSERT INTO study_runs_v5 (study_id, run_id, gpus, position) SELECT study_id, run_id, gpus, position FROM study_runs;
      DROP TABLE study_runs;
      ALTER TABLE study_runs_v5 RENAME TO study_runs;
      CREATE INDEX study_runs_by_run ON study_runs(run_id);
      CREATE INDEX study_runs_by_gpus ON study_runs(study_id, gpus);
    `,
  },
  {
    version: 6,
    name: 'surfaces of runs with bodies',
    sql: `
      -- the surface sums of a completed run (SURFACE_Q little-endian float64 per element: the bodies' triangles,
      -- then the six domain faces), the triangles as meshed (float64, 9 each) with each one's body (int32), and
      -- the grid's cell marks (uint8 kind per cell; float64 gas fraction of each cut cell in cell order)
      CREATE TABLE run_surfaces (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        elements INTEGER NOT NULL CHECK (elements >= 0),
        sampled_time REAL NOT NULL,
        sums BLOB NOT NULL,
        triangles BLOB NOT NULL,
        triangle_body BLOB NOT NULL,
        body_names TEXT NOT NULL,
        cell_kind BLOB,
        cut_fraction BLOB
      );
    `,
  },
];

/** PRAGMA application_id of a dsmc run database ('DSMC' in ASCII): tells it from other SQLite files. */
export const APPLICATION_ID = 0x44534d43;

/** The schema version this code writes. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** The schema version of an open database (PRAGMA user_version). */
export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Runs the migrations after the database's version up to `target` (default: all), in one transaction. */
export function migrate(db: Database.Database, target = LATEST_VERSION): void {
  db.transaction(() => {
    // read inside the (immediate) transaction: another process may have migrated meanwhile
    const from = schemaVersion(db);
    if (from === 0) db.pragma(`application_id = ${APPLICATION_ID}`);
    for (const m of MIGRATIONS) {
      if (m.version <= from || m.version > target) continue;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
  }).immediate();
}
