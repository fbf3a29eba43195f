// `dsmc db check` and `dsmc db recover OUT`: find damage in the run database and copy every readable run out of
// a damaged one into a new file. Both only read the database of the data folder.
import { databasePath, resolveDataDir } from '../../store/data-dir.js';
import { checkDatabase, type CheckReport } from '../../store/check-database.js';
import { recoverDatabase, type RecoverReport } from '../../store/recover-database.js';
import type { CliCommand } from '../command.js';
import { DATA_DIR_OPTION } from '../store-args.js';
import { printSafe } from '../terminal-text.js';

const USAGE = 'db check [--json] [--data-dir DIR] | db recover OUT [--json] [--data-dir DIR]';

/** Run ids as a short list: `1-12, 15, 18-20`. */
export function idRanges(ids: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    out.push(i === j ? String(ids[i]) : `${ids[i]}-${ids[j]}`);
    i = j;
  }
  return out.join(', ') || 'none';
}

/** The ids from 1 to the largest of `found` that are not in it. */
function missingIds(found: number[]): number[] {
  const have = new Set(found);
  return Array.from({ length: Math.max(0, ...found) }, (_, i) => i + 1).filter((id) => !have.has(id));
}

/** The text report of `db check`. */
function checkText(r: CheckReport): string {
  const n = r.runs.readable.length + r.runs.unreadable.length;
  if (r.ok) return `${r.path}: ok (integrity_check found no damage; ${n} run${n === 1 ? '' : 's'}, all readable)\n`;
  const lines = [`${r.path} is damaged. SQLite's integrity_check says:`, ...r.problems.map((p) => `  ${p}`)];
  if (r.runScanError) {
    lines.push(`the list of runs cannot be read whole (${r.runScanError}); runs were looked up one by one: ids not found ` +
      `${idRanges(missingIds([...r.runs.readable, ...r.runs.unreadable.map((u) => u.id)]))} (on the damaged page, or deleted before)`);
  }
  lines.push(`readable runs: ${idRanges(r.runs.readable)}`);
  lines.push(`unreadable runs: ${r.runs.unreadable.length ? '' : 'none'}`);
  for (const u of r.runs.unreadable) lines.push(`  run ${u.id}: ${u.reason}`);
  lines.push('To keep the readable runs: dsmc db recover NEW.sqlite (same --data-dir) copies them into a new database file;',
    `then move the damaged file aside (mv "${r.path}" "${r.path}.damaged") and the new one in its place (mv NEW.sqlite "${r.path}").`);
  return lines.join('\n') + '\n';
}

/** The text report of `db recover`. */
function recoverText(r: RecoverReport): string {
  const lines = [`wrote ${r.out}: ${r.runs.recovered.length} run${r.runs.recovered.length === 1 ? '' : 's'} recovered (${idRanges(r.runs.recovered)}), ` +
    `${r.runs.lost.length} lost, ${r.studies.recovered} stud${r.studies.recovered === 1 ? 'y' : 'ies'}, ${r.clusterProfiles.recovered} cluster profile(s)`];
  for (const l of r.runs.lost) lines.push(`  lost run ${l.id}: ${l.reason}`);
  for (const l of r.studies.lost) lines.push(`  lost study ${l.id}: ${l.reason}`);
  if (r.clusterProfiles.lost) lines.push(`  lost the cluster profiles: ${r.clusterProfiles.lost}`);
  if (r.runScanError) {
    lines.push(`  the list of runs could not be read whole (${r.runScanError}); runs were looked up one by one: ids not found ` +
      `${idRanges(missingIds([...r.runs.recovered, ...r.runs.lost.map((l) => l.id)]))} (on the damaged page, or deleted before)`);
  }
  lines.push(`The damaged ${r.source} was not changed. To use the new file: mv "${r.source}" "${r.source}.damaged" && mv "${r.out}" "${r.source}"`);
  return lines.join('\n') + '\n';
}

export const dbCommand: CliCommand = {
  name: 'db',
  usage: USAGE,
  summary: 'Check the run database for damage (SQLite integrity_check, and which runs can still be read), or copy every\n' +
    'readable run, study and cluster profile of a damaged one into the new database file OUT (the damaged file is only read).',
  options: { json: { type: 'boolean', default: false }, ...DATA_DIR_OPTION },
  async run(args) {
    const [action, ...rest] = args.positionals;
    const path = databasePath(resolveDataDir(args.values['data-dir'] as string | undefined));
    if (action === 'check' && rest.length === 0) {
      const r = checkDatabase(path);
      printSafe(args.values.json ? JSON.stringify(r) + '\n' : checkText(r));
      return r.ok ? 0 : 1;
    }
    if (action === 'recover' && rest.length === 1) {
      const r = recoverDatabase(path, rest[0]);
      printSafe(args.values.json ? JSON.stringify(r) + '\n' : recoverText(r));
      return 0;
    }
    throw new Error(`expected "check" or "recover OUT"${args.positionals.length ? `, got "${args.positionals.join(' ')}"` : ''}; usage: dsmc ${USAGE}`);
  },
};
