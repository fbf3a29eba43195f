// `dsmc studies`, `dsmc study show` and `dsmc study delete` (study-store-commands.ts), driven through their
// command objects on a temporary run database; stdout is captured.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STUDY_STORE_SUBCOMMANDS, studiesCommand, studyDeleteCommand, studyShowCommand } from '../../src-main/cli/commands/study-store-commands.js';
import { RunStore } from '../../src-main/store/run-store.js';
import { phases, removeDir, runInput, summary, tempDir } from './store-fixtures.js';

let dir: string;
let studyId: number;
let runs: number[];

beforeEach(() => {
  dir = tempDir();
  const store = RunStore.open({ dataDir: dir });
  // 1 GPU 0.2 s, 2 GPUs 0.125 s: speedup 1.6, efficiency 80 %
  runs = [[1, 0.2], [2, 0.125]].map(([n, seconds]) => {
    const id = store.createRun(runInput({ ranks: n, gpus: n }));
    store.completeRun(id, { summary: { ...summary(), seconds }, phases: phases(), fields: null });
    return id;
  });
  const s = store.createStudy({ name: 'box strong', kind: 'strong', project: 'p1', caseName: 'box', caseHash: store.getRun(runs[0]).caseHash });
  studyId = s.id;
  store.addStudyRun(studyId, runs[1], 2);
  store.addStudyRun(studyId, runs[0], 1);
  store.close();
});
afterEach(() => removeDir(dir));

/** Runs a command with positionals and options; returns its stdout. */
async function run(cmd: typeof studiesCommand, positionals: string[], values: Record<string, string | boolean> = {}): Promise<string> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => { out += String(chunk); return true; });
  try {
    expect(await cmd.run({ positionals, values: { 'data-dir': dir, json: false, ...values } })).toBe(0);
  } finally {
    spy.mockRestore();
  }
  return out;
}

describe('study commands', () => {
  it('lists studies with their GPU counts, as a table and as JSON, filtered by project', async () => {
    const text = await run(studiesCommand, []);
    expect(text).toMatch(/id\s+project\s+name\s+kind/);
    expect(text).toMatch(new RegExp(`${studyId}\\s+p1\\s+box strong\\s+strong\\s+box\\s+1,2\\s+2/2`));
    const json = JSON.parse(await run(studiesCommand, [], { json: true }));
    expect(json.map((s: { id: number }) => s.id)).toEqual([studyId]);
    expect(await run(studiesCommand, [], { project: 'other' })).toMatch(/no studies in project "other"/);
  });

  it('shows a study with speedup, efficiency and the model', async () => {
    const text = await run(studyShowCommand, ['show', String(studyId)]);
    expect(text).toMatch(/study \d+: box strong \(strong scaling of box, project p1/);
    expect(text).toMatch(new RegExp(`2\\s+${runs[1]}\\s+completed\\s+2\\s+0\\.125.*1\\.600\\s+80\\.0 %`));
    expect(text).toMatch(/two GPU counts: only T1 and the serial fraction are fitted/);
    expect(text).toMatch(/model: T\(n\) = T1/);
    const json = JSON.parse(await run(studyShowCommand, ['show', String(studyId)], { json: true }));
    expect(json.report.points.map((p: { speedup: number }) => p.speedup)).toEqual([1, 1.6]);
  });

  it('deletes a study and keeps its runs; names bad arguments', async () => {
    await expect(studyShowCommand.run({ positionals: ['show', 'x'], values: { 'data-dir': dir } })).rejects.toThrow(/STUDY must be a study id .*got "x"/);
    await expect(studyShowCommand.run({ positionals: ['show'], values: { 'data-dir': dir } })).rejects.toThrow(/expected 2 arguments, got 1.*usage: dsmc study show/);
    await expect(STUDY_STORE_SUBCOMMANDS.show.run({ positionals: ['show', '77'], values: { 'data-dir': dir } })).rejects.toThrow(/study 77 not found/);
    expect(await run(studyDeleteCommand, ['delete', String(studyId)])).toMatch(new RegExp(`deleted study ${studyId} \\(box strong\\); its 2 run\\(s\\) stay: ${runs[0]}, ${runs[1]}`));
    expect(await run(studiesCommand, [])).toMatch(/no studies in/);
    const store = RunStore.open({ dataDir: dir });
    expect(store.listRuns().map((r) => r.id)).toEqual(runs);
    store.close();
  });
});
