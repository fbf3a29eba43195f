// The run database: import RunStore (and the data-folder helpers) from here.
export { RunStore, type CreateRunInput } from './run-store.js';
export type { CreateStudyInput } from './study-store.js';
export { caseHashOf } from './canonical-json.js';
export { DATA_DIR_ENV, DATABASE_FILE, databasePath, defaultDataDir, resolveDataDir } from './data-dir.js';
export { StoreOpenError } from './open-database.js';
export { STALE_RUN_REASON } from './stale-runs.js';
export type { LaunchRecord, RankRecord } from './cluster-rows.js';
