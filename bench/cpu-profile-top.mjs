// Summarizes V8 .cpuprofile files (node --cpu-prof): the functions with the most self time and the most inclusive
// time, for reading a rank's main thread on a machine where the profiles themselves are too big to bring back.
// Usage: node bench/cpu-profile-top.mjs FILE.cpuprofile... [--top N]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 40;
const files = args.filter((a, i) => a !== '--top' && (topAt < 0 || i !== topAt + 1));

/** One line per function: name, file and line, the key both tables group by. */
function keyOf(node) {
  const f = node.callFrame;
  const file = (f.url || '').replace(/^.*\/(out|node_modules)\//, '$1/');
  return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
}

/** Self and inclusive milliseconds by function of one profile. */
function summarize(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfMs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const id = profile.samples[i];
    selfMs.set(id, (selfMs.get(id) ?? 0) + dt);
  }
  const self = new Map();
  const incl = new Map();
  for (const [id, ms] of selfMs) {
    const k = keyOf(byId.get(id));
    self.set(k, (self.get(k) ?? 0) + ms);
    // inclusive: each function on the stack once
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const key = keyOf(byId.get(at));
      if (seen.has(key)) continue;
      seen.add(key);
      incl.set(key, (incl.get(key) ?? 0) + ms);
    }
  }
  const total = (profile.endTime - profile.startTime) / 1000;
  return { self, incl, total };
}

for (const file of files) {
  const { self, incl, total } = summarize(JSON.parse(readFileSync(file, 'utf8')));
  console.log(`== ${file}: ${total.toFixed(0)} ms profiled`);
  const rows = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, ms]) => `  ${ms.toFixed(1).padStart(9)} ms ${(100 * ms / total).toFixed(1).padStart(5)} %  ${k}`);
  console.log(' self time:');
  console.log(rows(self).join('\n'));
  console.log(' inclusive time:');
  console.log(rows(incl).join('\n'));
}
