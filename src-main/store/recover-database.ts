// `dsmc db recover OUT`: copies every readable run (with its project, case and every recorded row), the studies
// and the cluster profiles of a damaged run database into a new one made by the store's own migrations. Each
// run is copied in one transaction, all of its rows or none; the new file is written under a temporary name,
// checked with integrity_check, and renamed to OUT only when complete. The damaged file is only read.
import type Database from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { checkOutputTarget } from '../reports/output-target.js';
import { openDatabase } from './open-database.js';
import { closeSalvage, openForSalvage, readRunRows, readableIds, reasonOf, tablesOf, type Row, type RunRows } from './salvage-read.js';

/** What a recovery copied and what it could not. */
export interface RecoverReport {
  source: string;
  out: string;
  runs: { recovered: number[]; lost: { id: number; reason: string }[] };
  studies: { recovered: number; lost: { id: number; reason: string }[] };
  clusterProfiles: { recovered: number; lost: string | null };
  /** Set when the runs table itself could not be scanned (ids were then found one by one). */
  runScanError: string | null;
}

/** Inserts rows into a table of the new database, copying the columns both schemas have. */
class RowWriter {
  private readonly columns = new Map<string, Set<string>>();
  constructor(private readonly db: Database.Database) {}

  /** Inserts one row (`ignore`: keep an existing row with the same key, for shared projects and cases). */
  insert(table: string, row: Row, ignore = false): void {
    const have = this.columnsOf(table);
    const cols = Object.keys(row).filter((c) => have.has(c));
    this.db.prepare(`INSERT ${ignore ? 'OR IGNORE ' : ''}INTO ${table} (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
      .run(...cols.map((c) => row[c]));
  }

  /** The column names of a table of the new database. */
  private columnsOf(table: string): Set<string> {
    let c = this.columns.get(table);
    if (!c) {
      c = new Set((this.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((r) => r.name));
      this.columns.set(table, c);
    }
    return c;
  }
}

/** Copies one run's rows into the new database in one transaction. */
function writeRun(out: Database.Database, w: RowWriter, r: RunRows): void {
  out.transaction(() => {
    w.insert('projects', r.project, true);
    w.insert('cases', r.case, true);
    w.insert('runs', r.run);
    for (const c of r.children) for (const row of c.rows) w.insert(c.table, row);
  }).immediate();
}

/** Copies the readable studies (with their project) and the rows of their runs that were recovered. */
function copyStudies(src: Database.Database, out: Database.Database, w: RowWriter, runs: Set<number>, report: RecoverReport): void {
  const { ids } = readableIds(src, 'studies');
  for (const id of ids) {
    try {
      const study = src.prepare('SELECT * FROM studies WHERE id = ?').get(id) as Row;
      const project = src.prepare('SELECT * FROM projects WHERE id = ?').get(study.project_id) as Row | undefined;
      if (!project) throw new Error(`its project (id ${String(study.project_id)}) is gone`);
      const members = (src.prepare('SELECT * FROM study_runs WHERE study_id = ?').all(id) as Row[]).filter((m) => runs.has(Number(m.run_id)));
      out.transaction(() => {
        w.insert('projects', project, true);
        w.insert('studies', study);
        for (const m of members) w.insert('study_runs', m);
      }).immediate();
      report.studies.recovered++;
    } catch (e) {
      report.studies.lost.push({ id, reason: reasonOf(e) });
    }
  }
}

/** Copies the cluster profiles when their table can be read. */
function copyProfiles(src: Database.Database, out: Database.Database, w: RowWriter, report: RecoverReport): void {
  try {
    const rows = src.prepare('SELECT * FROM cluster_profiles').all() as Row[];
    out.transaction(() => { for (const r of rows) w.insert('cluster_profiles', r); }).immediate();
    report.clusterProfiles.recovered = rows.length;
  } catch (e) {
    report.clusterProfiles.lost = reasonOf(e);
  }
}

/** Copies the projects that can be read (also those without runs). */
function copyProjects(src: Database.Database, out: Database.Database, w: RowWriter): void {
  const { ids } = readableIds(src, 'projects');
  for (const id of ids) {
    try {
      const row = src.prepare('SELECT * FROM projects WHERE id = ?').get(id) as Row;
      out.transaction(() => w.insert('projects', row, true)).immediate();
    } catch {
      // a project on a damaged page comes with its runs, if any of them is readable
    }
  }
}

/** The checks on OUT before anything is written (the shared output checks, then: a new file, not the damaged one); returns the path to write. */
function checkTarget(source: string, out: string): string {
  if (out !== '' && resolve(out) === resolve(source)) throw new Error(`the output ${out} is the damaged database itself; give a new file name, e.g. recovered.sqlite`);
  const exists = (p: string) => { try { return statSync(p).isFile(); } catch { return false; } };
  for (const p of out.trim() === '' || /[\\/]$/.test(out) ? [] : [out, `${out}-wal`]) {
    if (exists(p)) throw new Error(`${p} already exists; give the name of a new file (dsmc db recover never overwrites one)`);
  }
  const target = checkOutputTarget(out, { dataDirs: [dirname(resolve(source))], label: 'db recover OUT', example: 'recovered.sqlite' });
  if (existsSync(target)) throw new Error(`${out} already exists; give the name of a new file (dsmc db recover never overwrites one)`);
  return target;
}

/** Recovers the readable content of the run database at `source` into a new database file `out`. */
export function recoverDatabase(source: string, out: string): RecoverReport {
  const target = checkTarget(source, out);
  const src = openForSalvage(source);
  const tmp = resolve(dirname(target), `.${basename(target)}.tmp-${process.pid}`);
  const report: RecoverReport = { source, out, runs: { recovered: [], lost: [] }, studies: { recovered: 0, lost: [] }, clusterProfiles: { recovered: 0, lost: null }, runScanError: null };
  let dst: Database.Database | null = null;
  try {
    dst = openDatabase(dirname(tmp), tmp);
    const w = new RowWriter(dst);
    const tables = tablesOf(src);
    copyProjects(src, dst, w);
    const { ids, scanError } = readableIds(src, 'runs');
    report.runScanError = scanError;
    for (const id of ids) {
      let rows: RunRows;
      try {
        rows = readRunRows(src, tables, id);
      } catch (e) {
        report.runs.lost.push({ id, reason: reasonOf(e) });
        continue;
      }
      writeRun(dst, w, rows);
      report.runs.recovered.push(id);
    }
    if (tables.has('studies')) copyStudies(src, dst, w, new Set(report.runs.recovered), report);
    if (tables.has('cluster_profiles')) copyProfiles(src, dst, w, report);
    const check = dst.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`the recovered database failed its integrity check (${String(check)}); nothing was written to ${out}`);
    // one self-contained file: no -wal or -shm beside it
    dst.pragma('journal_mode = DELETE');
    dst.close();
    dst = null;
    const fd = openSync(tmp, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
    renameSync(tmp, target);
    return report;
  } finally {
    closeSalvage(src);
    if (dst) dst.close();
    for (const p of [tmp, `${tmp}-wal`, `${tmp}-shm`, `${tmp}-journal`]) rmSync(p, { force: true });
  }
}
