// The end of a sampled multi-rank run at the hypersonic wedge's full size (4 rcb ranks, 6.4M cells), on the CPU from
// the compiled out/ (npx tsc -p tsconfig.json first): the old way (the orchestrator places the ranks' raw sampling
// states and evaluates every cell) against the new (each rank evaluates its cells, rank-fields.ts, the orchestrator
// places the planes), with the bytes each sends and whether the fields agree bitwise; then each rank's read-back copy
// and evaluation, and the placing, into fresh memory against memory prefaulted while the GPU works (prefault.ts, the
// arenas of rank-fields.ts), on one thread and on worker threads (field-evaluation-threads.ts); then the whole grid
// evaluated as one GPU's run does, on one thread and on worker threads; the threaded rounds place the planes from the
// ranks' files (/dev/shm) on reading threads (place-planes.ts). States are seeded random sums.
// Usage: node bench/end-of-run-fields.mjs [--no-old] [--threads N] (N: threads a rank uses; default: this host's share
// for 4 ranks, as a run picks)
import { readFileSync } from 'node:fs';
import { loadCase } from '../out/src-main/solver/run-case.js';
import { buildTables } from '../out/src-main/solver/tables.js';
import { FieldAccumulator } from '../out/src-main/solver/field-accumulator.js';
import { emptySampleState, sampleLayout, SAMPLE_PARTS } from '../out/src-main/solver/sample-buffers.js';
import { rankFields, placeRankFields, placeRankFieldsOnThreads, endOfRunArena, endOfRunState, placedFieldsArena } from '../out/src-main/solver/rank-fields.js';
import { writeFieldPlanes } from '../out/src-main/cluster/transport/field-planes-file.js';
import { placingThreads } from '../out/src-main/solver/place-planes.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fieldsSha256 } from '../out/src-main/solver/fields.js';
import { evaluationThreads } from '../out/src-main/solver/field-evaluation-threads.js';
import { decompose } from '../out/src-main/cluster/decomposition/index.js';
import { subdomainOf } from '../out/src-main/solver/subdomain.js';
const kase = loadCase(JSON.parse(readFileSync(new URL('../resources/cases/hypersonic-wedge.json', import.meta.url), 'utf8')), ['run.steps=1500', 'sampling.start=1000']);
const tables = buildTables(kase);
const d = decompose('rcb', kase.grid.cells, 4);
const subs = d.boxes.map((_, r) => subdomainOf(d, r));
let seed = 1; const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
const states = subs.map((s) => { const st = emptySampleState(sampleLayout(tables), s.nLocal); for (const k of SAMPLE_PARTS) { const a = st[k]; for (let i = 0; i < a.length; i++) a[i] = k === 'welford' ? rnd() : Math.floor(rnd() * 1e6); } return st; });
const counters = { samples: 500, blockPasses: 0, blockSubmits: 0, blocks: 20 };
const threadsAt = process.argv.indexOf('--threads');
const rankThreads = threadsAt > 0 ? Number(process.argv[threadsAt + 1]) : evaluationThreads(Math.max(...subs.map((s) => s.nLocal)), 4);
const gridThreads = threadsAt > 0 ? rankThreads : evaluationThreads(tables.nCells, 1);
const mb = (planes) => (planes.reduce((s, p) => s + p.byteLength, 0) / 1e6).toFixed(0);
/** The orchestrator folding every rank's raw state and evaluating every cell: milliseconds and the fields' hashes. */
function oldWay() {
  const t = performance.now();
  const acc = new FieldAccumulator(kase, tables);
  acc.counters = { ...counters };
  states.forEach((s, r) => acc.place(s, subs[r]));
  const f = acc.fields(), e = acc.errors();
  return { ms: performance.now() - t, hash: [fieldsSha256(f), fieldsSha256(e)] };
}
for (let rep = 0; rep < 2 && !process.argv.includes('--no-old'); rep++) {
  // the old way first (only its hashes kept, so its arrays are garbage when the new way runs, as in a run: one or the other)
  const { ms: old, hash: oldHash } = oldWay();
  const perRank = [];
  const parts = [];
  for (const [r, s] of states.entries()) { const t0 = performance.now(); const rf = await rankFields(kase, tables, subs[r], s, counters); perRank.push(performance.now() - t0); parts.push({ sub: subs[r], ...rf }); }
  const t = performance.now();
  const placed = placeRankFields(kase.grid.cells, parts);
  const place = performance.now() - t;
  const same = fieldsSha256(placed.fields) === oldHash[0] && fieldsSha256(placed.errors) === oldHash[1];
  console.log(`old (orchestrator: place raw states, fields, errors) ${old.toFixed(0)} ms, raw state sent ${mb(states.flatMap((s) => SAMPLE_PARTS.map((k) => s[k])))} MB;`,
    `new: ranks ${perRank.map((x) => x.toFixed(0)).join('/')} ms (at once: max ${Math.max(...perRank).toFixed(0)}), orchestrator places ${place.toFixed(0)} ms, planes sent ${mb(parts.flatMap((p) => p.planes))} MB; bitwise equal: ${same}`);
}

// fresh memory against prefaulted arenas (one thread), and prefaulted arenas evaluated on rankThreads threads
for (let rep = 0; rep < 3; rep++) {
  for (const [prefaulted, threads] of [[false, 1], [true, 1], [true, rankThreads]]) {
    const arenas = prefaulted ? subs.map((s) => endOfRunArena(kase, tables, s.nLocal)) : null;
    const placedArena = prefaulted ? placedFieldsArena(kase, tables) : null;
    if (arenas) await Promise.all([...arenas.map((a) => a.touched), placedArena.touched]);
    const copyMs = [], evalMs = [];
    const parts = [];
    for (const [r, s] of states.entries()) {
      let t0 = performance.now();
      const into = arenas ? endOfRunState(arenas[r], tables, subs[r].nLocal) : Object.fromEntries(SAMPLE_PARTS.map((k) => [k, new s[k].constructor(s[k].length)]));
      for (const k of SAMPLE_PARTS) into[k].set(s[k]);
      copyMs.push(performance.now() - t0);
      t0 = performance.now();
      const rf = await rankFields(kase, tables, subs[r], into, counters, arenas?.[r].f64(), threads);
      evalMs.push(performance.now() - t0);
      parts.push({ sub: subs[r], ...rf });
    }
    // placed from frames on one thread, or (threads) from the ranks' files of a peer folder, one reading thread each
    let t = performance.now();
    let placed, writeMs = '';
    if (threads === 1) placed = placeRankFields(kase.grid.cells, parts, placedArena?.f64());
    else {
      const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'planes-'));
      const files = parts.map((p, r) => ({ sub: p.sub, names: p.names, file: writeFieldPlanes(dir, r, p.planes) }));
      writeMs = ` (files written ${(performance.now() - t).toFixed(0)} ms)`;
      t = performance.now();
      placed = await placeRankFieldsOnThreads(kase.grid.cells, files, placingThreads(files.length), placedArena?.f64());
      rmSync(dir, { recursive: true, force: true });
    }
    const place = performance.now() - t;
    const label = `${prefaulted ? 'prefaulted' : 'fresh     '}, ${threads} thread${threads > 1 ? 's' : ' '}`;
    console.log(`${label}: ranks copy the read-back ${copyMs.map((x) => x.toFixed(0)).join('/')} ms, evaluate ${evalMs.map((x) => x.toFixed(0)).join('/')} ms; orchestrator places ${threads > 1 ? 'from files on threads ' : ''}${place.toFixed(0)} ms${writeMs}; fields ${fieldsSha256(placed.fields).slice(0, 16)} errors ${fieldsSha256(placed.errors).slice(0, 16)}`);
  }
}

// the whole grid as one GPU's run evaluates it (its state placed from the ranks' into a prefaulted arena)
for (let rep = 0; rep < 2; rep++) {
  for (const threads of [1, gridThreads]) {
    const arena = endOfRunArena(kase, tables, tables.nCells);
    await arena.touched;
    const global = new FieldAccumulator(kase, tables);
    global.counters = { ...counters };
    states.forEach((s, r) => global.place(s, subs[r]));
    const into = endOfRunState(arena, tables, tables.nCells);
    for (const k of SAMPLE_PARTS) into[k].set(global.state[k]);
    const one = new FieldAccumulator(kase, tables, null, arena.f64());
    one.state = into;
    one.counters = { ...counters };
    const t0 = performance.now();
    const got = await one.evaluate(threads);
    const ms = performance.now() - t0;
    console.log(`one GPU's grid (${tables.nCells} cells), ${got.threads} thread(s): evaluate ${ms.toFixed(0)} ms; fields ${fieldsSha256(got.fields).slice(0, 16)} errors ${fieldsSha256(got.errors).slice(0, 16)}`);
  }
}
