// `dsmc study strong CASE --gpus 1,2 --repeat 2` end to end on a tiny case (ranks sharing the default adapter):
// the runs go round the GPU counts in turn, all four are in the study, and the report shows each count's median
// run with every run id; a bad --repeat names the option and the fix. Uses the compiled out/ (`npm test` builds it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScalingReport } from '../../src-main/common/reports/scaling-model.js';
import type { StudyRecord } from '../../src-main/common/run-record.js';
import { runNode } from '../helpers/run-process.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DIR = mkdtempSync(join(tmpdir(), 'dsmc-study-repeat-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** Runs dsmc with the temporary data folder; killed after 240 s. */
async function dsmc(args: string[]) {
  const r = await runNode([BIN, ...args, '--data-dir', join(DIR, 'data')], { timeout: 240_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('dsmc study --repeat', () => {
  it('runs every GPU count twice in turn and reports the median run of each with all run ids', async () => {
    const r = await dsmc(['study', 'strong', 'collide-box', '--gpus', '1,2', '--repeat', '2', '--set', 'grid.cells=[6,6,6]', '--set', 'run.steps=60',
      '--warmup', '0', '--no-progress', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('== 2 GPUs, run 2 of 2');
    const { study, report } = JSON.parse(r.stdout.trim().split('\n').pop()!) as { study: StudyRecord; report: ScalingReport };
    expect(study.name).toBe('strong scaling of collide-box on 1, 2 GPUs, 2 runs each');
    // in the order they ran: 1, 2, 1, 2 GPUs
    expect([...study.runs].sort((a, b) => a.position - b.position).map((x) => x.gpus)).toEqual([1, 2, 1, 2]);
    expect(study.runs.every((x) => x.run.status === 'completed')).toBe(true);
    expect(report.points.map((p) => p.gpus)).toEqual([1, 2]);
    for (const p of report.points) {
      const ids = study.runs.filter((x) => x.gpus === p.gpus).map((x) => x.runId).sort((a, b) => a - b);
      expect(p.repeats.runIds).toEqual(ids);
      expect(ids).toContain(p.runId);
      expect(p.repeats.particleStepsPerSecond).toHaveLength(2);
      // of two runs the median is the slower one
      expect(p.particleStepsPerSecond).toBe(Math.min(...p.repeats.particleStepsPerSecond));
    }
  });

  it('refuses a bad --repeat, naming the option and what it takes', async () => {
    for (const bad of ['0', '2.5', '21', 'x']) {
      const r = await dsmc(['study', 'strong', 'collide-box', '--gpus', '1', '--repeat', bad]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`--repeat: got "${bad}"; expected the number of runs per GPU count, 1 to 20 (the report uses the median run)`);
    }
  });
});
