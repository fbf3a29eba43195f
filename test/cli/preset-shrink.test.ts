// Every preset's own shrink command runs (issue 25 item 20): the `--set` list after "Shrunk for a CPU:" in each
// preset's description is parsed and given to the real `dsmc check PRESET --set ...`, which must accept it with no
// pre-launch error. Before, supersonic-block's left its 0.04 m block in a 0.0025 m box. Uses the compiled out/.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const CASES = new URL('../../resources/cases/', import.meta.url);

/** The presets and the --set values of each one's shrink command (empty when its description has none). */
function shrinkCommands(): { preset: string; sets: string[] }[] {
  return readdirSync(CASES).filter((f) => f.endsWith('.json')).sort().map((f) => {
    const description: string = JSON.parse(readFileSync(new URL(f, CASES), 'utf8')).description ?? '';
    const m = /Shrunk for a CPU:((?:\s+--set\s+\S+)+)/.exec(description);
    const sets = m ? [...m[1].matchAll(/--set\s+(\S+)/g)].map((x) => x[1]) : [];
    return { preset: f.replace(/\.json$/, ''), sets };
  });
}

describe('the presets\' shrink commands', () => {
  const all = shrinkCommands();

  it('the presets with bodies all say how to shrink them', () => {
    const withBodies = all.filter(({ preset }) => (JSON.parse(readFileSync(new URL(`${preset}.json`, CASES), 'utf8')).bodies ?? []).length > 0);
    const large = withBodies.filter(({ preset }) => preset !== 'sphere-free-molecular'); // small already
    expect(large.length).toBeGreaterThanOrEqual(3);
    for (const p of large) expect(p.sets.length, p.preset).toBeGreaterThan(0);
  });

  for (const { preset, sets } of all.filter((p) => p.sets.length > 0)) {
    it(`${preset}: dsmc check with its shrink command passes`, async () => {
      const r = await runNode([BIN, 'check', preset, ...sets.flatMap((s) => ['--set', s]), '--json'],
        { timeout: 120_000, env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? '/tmp' } });
      expect(r.status, `dsmc check ${preset} --set ${sets.join(' --set ')}: ${r.stderr}`).toBe(0);
      const report = JSON.parse(r.stdout.trim().split('\n').pop()!);
      expect(report.ok).toBe(true);
      expect(report.errors).toEqual([]);
    }, 120_000);
  }
});
