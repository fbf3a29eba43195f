// Host work of a sampled submit that closes a batch-means block, on a case's grid (default: the scaling box,
// 6,291,456 cells): the host copy of the read-back sums, add into f64, close the block. Synthetic sums; median of
// 4 rounds after 2 warm-up rounds. Usage: node bench/fold-bench.mjs [--threads N] [--case FILE] [--root BUILD]
// (--root: the folder of another build's checkout, e.g. an older commit, to compare; builds without worker
// threads read back into a new array every submit, which is timed as its copy).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const { values: opt } = parseArgs({ options: { threads: { type: 'string', default: '1' }, case: { type: 'string', default: 'resources/cases/scaling-box.json' }, root: { type: 'string', default: '.' } } });
const root = resolve(opt.root);
const load = (path) => import(pathToFileURL(resolve(root, 'out/src-main', path)).href);
const { FieldAccumulator, foldInput } = await load('solver/field-accumulator.js');
const { parseCaseText } = await load('common/case-schema.js');
const { buildTables } = await load('solver/tables.js');

const kase = parseCaseText(readFileSync(resolve(opt.case), 'utf8'));
const acc = new FieldAccumulator(kase, buildTables(kase), { threads: Number(opt.threads) });
const threaded = typeof foldInput === 'function';
const mapped = new Float32Array(acc.sums.length); // stands for the mapped staging buffer
for (let i = 0; i < mapped.length; i++) mapped[i] = 1 + (i % 97);
const host = threaded ? foldInput(mapped.length, acc) : null;
const times = { copy: [], add: [], close: [] };
for (let round = 0; round < 6; round++) {
  const t0 = performance.now();
  const sums = host ? (new Uint8Array(host.buffer).set(new Uint8Array(mapped.buffer)), host) : new Float32Array(mapped.buffer.slice(0));
  const t1 = performance.now();
  acc.add(sums, 1);
  const t2 = performance.now();
  acc.closeBlock(1, false);
  const t3 = performance.now();
  if (round >= 2) { times.copy.push(t1 - t0); times.add.push(t2 - t1); times.close.push(t3 - t2); }
}
acc.releaseThreads?.();
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const [copy, add, close] = [median(times.copy), median(times.add), median(times.close)];
console.log(`${kase.name}: ${acc.sums.length} sums, ${threaded ? `${acc.threads} thread(s)` : 'one thread (no worker threads in this build)'}; ` +
  `host copy ${copy.toFixed(0)} ms, add ${add.toFixed(0)} ms, close block ${close.toFixed(0)} ms, total ${(copy + add + close).toFixed(0)} ms`);
