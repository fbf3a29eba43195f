// Times the solver tables of a case built alone, three times (the full-size hypersonic wedge by default: its body meshed
// and cut on 6.4M cells), from a compiled build: node bench/build-tables.mjs [OUT_DIR] [CASE] [--threads N] [--set path=value ...]
// (OUT_DIR: out/ of this checkout, or a base build's out-REV/ unpacked by bench/bisect-builds.sh). --threads N builds the
// cell table on N threads (buildTablesOnThreads, DSMC_TABLE_THREADS=N; builds without it are timed on one thread).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const valueOf = (flag) => { const i = args.indexOf(flag); return i >= 0 ? args[i + 1] : undefined; };
const positional = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const [outDir = 'out', caseName = 'hypersonic-wedge'] = positional;
const sets = args.filter((a, i) => args[i - 1] === '--set');
const threads = valueOf('--threads');
const load = (path) => import(pathToFileURL(resolve(outDir, 'src-main', path)).href);
const tablesModule = await load('solver/tables.js');
const { loadCase } = await load('solver/run-case.js');
const { readCaseFile } = await load('cli/case-file.js');
const c = loadCase(readCaseFile(caseName), sets);
if (threads !== undefined) process.env.DSMC_TABLE_THREADS = threads;
const build = threads !== undefined && tablesModule.buildTablesOnThreads ? () => tablesModule.buildTablesOnThreads(c) : async () => tablesModule.buildTables(c);
for (let k = 0; k < 3; k++) {
  const t0 = performance.now();
  const t = await build();
  console.log(`${outDir} ${caseName}${threads ? ` on ${threads} threads` : ''}: tables in ${((performance.now() - t0) / 1000).toFixed(2)} s (${t.nCells} cells, ${t.bodies.nTris} triangles)`);
}
