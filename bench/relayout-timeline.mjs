// Reads the re-split timelines `bench/early-move-bench.sh ... resplit-ab` keeps (runs/resplit-BUILD-rtimeline-rank-R.jsonl)
// and prints, per rank and re-split, each event in ms from the relayout's start, the host work over 0.5 ms near it
// (buffers made, links readied ahead and when their pages were in) and the garbage collections over 2 ms.
// Usage: node bench/relayout-timeline.mjs RUNS_FOLDER BUILD   (BUILD: new, or a base build's revision)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [folder = 'runs', build = 'new'] = process.argv.slice(2);
const GC_KINDS = { 1: 'scavenge', 2: 'minor-ms', 4: 'full', 8: 'incremental', 16: 'weak' };

/** The timeline lines of one rank's file, parsed. */
function linesOf(rank) {
  const path = join(folder, `resplit-${build}-rtimeline-rank-${rank}.jsonl`);
  if (!existsSync(path)) return null;
  return readFileSync(path, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

for (let rank = 0; ; rank++) {
  const lines = linesOf(rank);
  if (!lines) break;
  for (const at of lines.filter((j) => j['relayout-start'])) {
    const t0 = at['relayout-start'];
    const ms = (t) => ((t - t0) / 1000).toFixed(1);
    const events = Object.entries(at).filter(([, v]) => typeof v === 'number' && v > 1e6).map(([k, v]) => `${k.replace('relayout-', '')} ${ms(v)}`);
    console.log(`rank ${rank}, re-split after step ${(at.step - 1) / 2}: ${events.join(', ')}; sent ${at['n-sent'] ?? '-'} particles`);
    for (const j of lines) {
      for (const h of j.hostWork ?? []) if (h.ms > 0.5 && Math.abs(h.start - t0) < 2e6) console.log(`    host ${ms(h.start)} ms: ${h.name}, ${h.ms.toFixed(1)} ms`);
      for (const g of j.gc ?? []) if (g.ms > 2 && Math.abs(g.start - t0) < 2e6) console.log(`    gc ${ms(g.start)} ms: ${GC_KINDS[g.kind] ?? g.kind}, ${g.ms.toFixed(1)} ms`);
    }
  }
}
