// Renaming and archiving projects. RunStore has no methods for these yet (see src-main/services/readme.md),
// so this opens its own connection to the same SQLite file for two single-row updates.
import Database from 'better-sqlite3';

/** Runs `use` on a short-lived connection to the run database at `path`. */
function withDb<T>(path: string, use: (db: Database.Database) => T): T {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return use(db);
  } finally {
    db.close();
  }
}

/** Renames a project; errors name a missing project or a taken name. */
export function renameProject(path: string, name: string, newName: string): void {
  withDb(path, (db) => {
    if (!db.prepare('SELECT 1 FROM projects WHERE name = ?').get(name)) throw new Error(`project "${name}" not found; pick one from the project list`);
    if (name !== newName && db.prepare('SELECT 1 FROM projects WHERE name = ?').get(newName)) {
      throw new Error(`a project named "${newName}" already exists; choose another name`);
    }
    db.prepare('UPDATE projects SET name = ? WHERE name = ?').run(newName, name);
  });
}

/** Archives (hides from the default list) or restores a project. */
export function setProjectArchived(path: string, name: string, archived: boolean): void {
  withDb(path, (db) => {
    const r = db.prepare('UPDATE projects SET archived = ? WHERE name = ?').run(archived ? 1 : 0, name);
    if (r.changes === 0) throw new Error(`project "${name}" not found; pick one from the project list`);
  });
}
