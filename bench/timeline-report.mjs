// Where the steps of a multi-rank run go, from the ranks' host timelines (DSMC_TIMELINE_DIR=DIR, see
// src-main/solver/step-timeline.ts): per rank, the mean and percentiles of each interval of the exchange
// cycle, how late each peer's migrants arrived after it sent them, which rank sent last, and how long the
// GPU sat idle between the interior pass and the next submit.
// Usage (after npx tsc -p tsconfig.json): node bench/timeline-report.mjs DIR
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXCHANGES_PER_STEP } from '../out/src-main/solver/exchange-sequence.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node bench/timeline-report.mjs DIR (the DSMC_TIMELINE_DIR of a run)');
  process.exit(2);
}
if (!existsSync(dir)) {
  console.error(`${dir} does not exist: run with DSMC_TIMELINE_DIR=${dir} first`);
  process.exit(2);
}
const files = readdirSync(dir).filter((f) => /^rank-\d+\.jsonl$/.test(f));
if (files.length === 0) {
  console.error(`${dir} holds no rank-N.jsonl: did the run end (the ranks write their timelines at the end)?`);
  process.exit(2);
}
/** ranks[r]: Map timeline key (2 s for step s, 2 s + 1 between steps) -> events */
const ranks = [];
/** extras[r]: the rank's garbage collections and event-loop delay */
const extras = [];
for (const f of files) {
  const r = Number(/\d+/.exec(f)[0]);
  const lines = readFileSync(join(dir, f), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  ranks[r] = new Map();
  for (const e of lines.filter((x) => x.step !== undefined)) {
    // the transport marks (sent, arrived-P) go under the exchange's number, EXCHANGES_PER_STEP * s for step s's
    // migrants (exchange-sequence.ts); the step's other events under 2 s: joined here
    const key = e.step > 0 && e.step % EXCHANGES_PER_STEP === 0 ? 2 * (e.step / EXCHANGES_PER_STEP) : e.step;
    ranks[r].set(key, { ...ranks[r].get(key), ...e, step: key });
  }
  extras[r] = lines.find((e) => e.gc !== undefined) ?? { gc: [], loopDelayMs: null };
}
const R = ranks.length;
const steps = [...ranks[0].keys()].filter((s) => s % 2 === 0 && ranks.every((m) => m.has(s) && m.has(s + 2))).sort((a, b) => a - b);

/** When the last peer message of a step reached the rank (its arrived-P marks), NaN without any. */
function lastArrival(e) {
  const t = Object.keys(e).filter((k) => k.startsWith('arrived-')).map((k) => e[k]);
  return t.length > 0 ? Math.max(...t) : NaN;
}

/** Mean, median, 90th percentile and maximum of xs (ms). */
function describe(xs) {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return '-';
  const q = (p) => v[Math.min(v.length - 1, Math.floor(p * v.length))];
  const mean = v.reduce((s, x) => s + x, 0) / v.length;
  return `${mean.toFixed(3)} (p50 ${q(0.5).toFixed(3)} p90 ${q(0.9).toFixed(3)} max ${q(1).toFixed(3)})`;
}

const intervals = [
  ['step period (move submit to next move submit)', (e, n) => n['move-submit'] - e['move-submit']],
  ['GPU: halo + move (submit to move done)', (e) => e['move-done'] - e['move-submit']],
  ['map latency (move done to status mapped)', (e) => e.status - e['move-done']],
  ['read the rest (status to send start)', (e) => e['send-start'] - e.status],
  ['hand-off (send start to sent)', (e) => e.sent - e['send-start']],
  ['waiting for peers (sent to received)', (e) => e.received - e.sent],
  ['  of it: the last peer message in to the exchange resumed', (e) => e.received - lastArrival(e)],
  ['upload (received to uploaded)', (e) => e.uploaded - e.received],
  ['  of it: staging mapped (received to mapped)', (e) => e['upload-mapped'] - e.received],
  ['  of it: arrivals copied into the staging buffer', (e) => e['upload-filled'] - e['upload-mapped']],
  ['  of it: unmap, copy recorded and submitted', (e) => e.uploaded - e['upload-filled']],
  ['record halo pass (uploaded to halo recorded)', (e) => e['halo-recorded'] - e.uploaded],
  ['to next submit (halo recorded to next move submit)', (e, n) => n['move-submit'] - e['halo-recorded']],
  ['GPU interior pass ends after status by', (e) => e['interior-done'] - e.status],
  ['GPU idle (interior done to next move submit)', (e, n) => Math.max(0, n['move-submit'] - e['interior-done'])],
];
const ms = (us) => us / 1000;
console.log(`${R} ranks, ${steps.length} steps with every event on every rank (${dir})`);
for (let r = 0; r < R; r++) {
  console.log(`\nrank ${r}`);
  for (const [name, f] of intervals) {
    console.log(`  ${name.padEnd(56)} ${describe(steps.map((s) => ms(f(ranks[r].get(s), ranks[r].get(s + 2)))))}`);
  }
  const ev = steps.map((st) => ranks[r].get(st));
  const again = ev.filter((e) => e['n-read-again'] !== undefined);
  console.log(`  ${'migrants sent per step'.padEnd(56)} ${describe(ev.map((e) => e['n-sent']))}`);
  console.log(`  ${'steps that read migrants a second time (more than expected)'.padEnd(56)} ${again.length}${again.length ? ` (steps ${again.slice(0, 5).map((e) => e.step / 2).join(', ')}${again.length > 5 ? ', ...' : ''})` : ''}`);
  const regrown = ev.filter((e) => e['n-regrow'] !== undefined).length;
  if (regrown > 0) console.log(`  ${'steps whose migrant buffer grew'.padEnd(56)} ${regrown}`);
  const first = ranks[r].get(steps[0])['move-submit'];
  const end = ranks[r].get(steps[steps.length - 1] + 2)['move-submit'];
  const gcs = extras[r].gc.filter((g) => g.start >= first && g.start <= end);
  const gcMs = gcs.reduce((s, g) => s + g.ms, 0);
  console.log(`  ${'garbage collections in the loop'.padEnd(56)} ${gcs.length}, ${gcMs.toFixed(1)} ms in all, longest ${Math.max(0, ...gcs.map((g) => g.ms)).toFixed(1)} ms`);
  // V8's kinds: 1 minor (scavenge), 2 major (mark-sweep-compact), 4 incremental marking, 8 weak callbacks
  for (const [kind, name] of [[1, 'minor'], [2, 'major'], [4, 'incremental'], [8, 'weak callbacks']]) {
    const k = gcs.filter((g) => g.kind === kind);
    if (k.length > 0) console.log(`    ${name}: ${k.length}, ${k.reduce((s, g) => s + g.ms, 0).toFixed(1)} ms, longest ${Math.max(...k.map((g) => g.ms)).toFixed(1)} ms`);
  }
  // host work that may hold up a step (buffers grown, pipelines compiled), with the step it fell in
  const stepAt = (t) => { let at = steps[0]; for (const st of steps) { if (ranks[r].get(st)['move-submit'] <= t) at = st; else break; } return at / 2; };
  const work = (extras[r].hostWork ?? []).filter((w) => w.start >= first && w.start <= end);
  console.log(`  ${'host work in the loop (grown buffers, compiled pipelines)'.padEnd(56)} ${work.length}, ${work.reduce((s, w) => s + w.ms, 0).toFixed(1)} ms in all`);
  for (const w of [...work].sort((a, b) => b.ms - a.ms).slice(0, 8)) console.log(`    step ${stepAt(w.start)}: ${w.name} ${w.ms.toFixed(1)} ms`);
  // the slowest steps (warm-up, submit boundaries and stalls show here) and what the rest take without them
  const periods = steps.map((st) => [st / 2, ms(ranks[r].get(st + 2)['move-submit'] - ranks[r].get(st)['move-submit'])]).sort((a, b) => b[1] - a[1]);
  const total = periods.reduce((sum, [, t]) => sum + t, 0);
  const worst = periods.slice(0, 10);
  const worstMs = worst.reduce((sum, [, t]) => sum + t, 0);
  console.log(`  ${'slowest 10 steps (step: ms)'.padEnd(56)} ${worst.map(([st, t]) => `${st}: ${t.toFixed(1)}`).join(', ')}`);
  console.log(`  ${'their share of the loop'.padEnd(56)} ${worstMs.toFixed(1)} of ${total.toFixed(1)} ms (${((100 * worstMs) / total).toFixed(1)} %)`);
  const d = extras[r].loopDelayMs;
  if (d) console.log(`  ${'event-loop delay (ms)'.padEnd(56)} p50 ${d.p50.toFixed(2)} p99 ${d.p99.toFixed(2)} max ${d.max.toFixed(2)}`);
  for (let p = 0; p < R; p++) {
    if (p === r) continue;
    const lag = steps.map((s) => ms(ranks[r].get(s)[`arrived-${p}`] - ranks[p].get(s).sent));
    console.log(`  ${`arrival from rank ${p} after it sent`.padEnd(56)} ${describe(lag)}`);
  }
}
// which rank's send came last each step, and by how much after the median rank's
const last = new Array(R).fill(0);
const lateBy = [];
const sendSkew = [];
for (const s of steps) {
  const sent = ranks.map((m) => m.get(s).sent);
  const k = sent.indexOf(Math.max(...sent));
  last[k] += 1;
  const sorted = [...sent].sort((a, b) => a - b);
  lateBy.push(ms(sorted[R - 1] - sorted[R - 2]));
  sendSkew.push(ms(sorted[R - 1] - sorted[0]));
  // where the last rank lost its time, against the others: start of the step (move submit) and its parts
}
console.log(`\nlast to send: ${last.map((n, r) => `rank ${r} ${n}`).join(', ')}`);
console.log(`last sender behind the second last: ${describe(lateBy)}`);
console.log(`spread of the send times (last - first): ${describe(sendSkew)}`);
const submitSkew = steps.map((s) => {
  const t = ranks.map((m) => m.get(s)['move-submit']);
  return ms(Math.max(...t) - Math.min(...t));
});
console.log(`spread of the move submits (last - first): ${describe(submitSkew)}`);
// between steps (odd keys): rebalance checks and relayouts, each event's time after the first of that key (ms)
for (let r = 0; r < R; r++) {
  const between = [...ranks[r].entries()].filter(([k, e]) => k % 2 === 1 && Object.keys(e).some((n) => n.startsWith('check-') || n.startsWith('relayout-')));
  if (between.length === 0) continue;
  console.log(`\nrank ${r} between steps (checks, relayouts; ms after the first event)`);
  for (const [k, e] of between) {
    const ev = Object.entries(e).filter(([n]) => n !== 'step' && typeof e[n] === 'number' && (n.startsWith('check-') || n.startsWith('relayout-'))).sort((a, b) => a[1] - b[1]);
    const t0 = ev[0][1];
    console.log(`  after step ${(k - 1) / 2}: ${ev.map(([n, t]) => `${n} ${ms(t - t0).toFixed(1)}`).join(', ')}`);
  }
}
