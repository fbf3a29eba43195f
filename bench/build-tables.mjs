// Times the solver tables of a case built alone, three times (the full-size hypersonic wedge by default: its body meshed
// and cut on 6.4M cells), from a compiled build: node bench/build-tables.mjs [OUT_DIR] [CASE] [--set path=value ...]
// (OUT_DIR: out/ of this checkout, or a base build's out-REV/ unpacked by bench/bisect-builds.sh).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [outDir = 'out', caseName = 'hypersonic-wedge', ...rest] = process.argv.slice(2);
const sets = rest.filter((a, i) => rest[i - 1] === '--set');
const load = (path) => import(pathToFileURL(resolve(outDir, 'src-main', path)).href);
const { buildTables } = await load('solver/tables.js');
const { loadCase } = await load('solver/run-case.js');
const { readCaseFile } = await load('cli/case-file.js');
const c = loadCase(readCaseFile(caseName), sets);
for (let k = 0; k < 3; k++) {
  const t0 = performance.now();
  const t = buildTables(c);
  console.log(`${outDir} ${caseName}: tables in ${((performance.now() - t0) / 1000).toFixed(2)} s (${t.nCells} cells, ${t.bodies.nTris} triangles)`);
}
