// Stop and keep through the service API (issue 27 item 5): a one-rank run launched in a child process and
// cancelled keeps what it sampled: it is recorded cancelled, "stopped by the user at step N", with its summary,
// phases, fields, surfaces; its field slices, VTK export, profile and comparison work like a completed run's; a
// resume from its checkpoint replaces the kept results with the full run's. A two-rank run (a spawned `dsmc run
// --ranks 2`, told to stop over its IPC channel) is kept the same way. Runs on the default adapter (lavapipe in CI);
// needs the built child (npm run build).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src-main/common/contract/types.js';
import { StudioService } from '../../src-main/services/studio-service.js';

let dir: string;
let service: StudioService;
const events: RunEvent[] = [];

/** The collide-box preset shrunk to 6x6x6 cells and `steps` steps, 10 steps per submit. */
async function tinyCase(steps: number, seed = 1): Promise<Record<string, unknown>> {
  const preset = (await service.listPresets()).find((p) => p.name === 'collide-box')!;
  const c = JSON.parse(JSON.stringify(preset.json)) as { grid: { cells: number[] }; run: Record<string, number> };
  c.grid.cells = [6, 6, 6];
  c.run.steps = steps;
  c.run.seed = seed;
  c.run.stepsPerSubmit = 10;
  return c as unknown as Record<string, unknown>;
}

/** Resolves with the 'ended' event of a run. */
function ended(runId: number): Promise<Extract<RunEvent, { kind: 'ended' }>> {
  return new Promise((resolve) => {
    const found = events.find((e) => e.kind === 'ended' && e.runId === runId);
    if (found) { resolve(found as Extract<RunEvent, { kind: 'ended' }>); return; }
    const off = service.onEvent((e) => { if (e.kind === 'ended' && e.runId === runId) { off(); resolve(e); } });
  });
}

/** Resolves once the run has recorded step `step` or later. */
function reached(runId: number, step: number): Promise<void> {
  return new Promise((resolve) => {
    const off = service.onEvent((e) => { if (e.kind === 'steps' && e.runId === runId && e.steps.some((s) => s.step >= step)) { off(); resolve(); } });
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dsmc-stop-keep-'));
  service = new StudioService({ dataDir: dir });
  service.onEvent((e) => events.push(e));
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('stop and keep (cancelRun)', () => {
  let stopped = 0;
  it('keeps the stopped run\'s fields, summary and phases, recorded cancelled at the step it reached', async () => {
    stopped = (await service.launchRun({ project: 'keep', caseJson: await tinyCase(100_000, 2), ranks: 1, decomposition: 'slab' })).runId;
    await reached(stopped, 100);
    await service.cancelRun({ runId: stopped });
    const end = await ended(stopped);
    expect(end.status).toBe('cancelled');
    expect(end.reason).toMatch(/^stopped by the user at step \d+ of 100000 \(from the app\); the fields, profile and surface loads sampled so far are kept$/);
    const detail = await service.getRun({ runId: stopped });
    expect(detail.run.status).toBe('cancelled');
    expect(detail.run.reason).toBe(end.reason);
    const step = Number(/at step (\d+)/.exec(end.reason!)![1]);
    expect(step).toBeGreaterThanOrEqual(100);
    expect(detail.run.lastStep).toBe(step);
    expect(detail.run.summary?.steps).toBe(step);
    expect(detail.hasFields).toBe(true);
    // the profile: the phase table over the steps it ran
    expect(detail.profile.phaseTable.rows.length).toBeGreaterThan(0);
    expect(detail.profile.phaseTable.loopSeconds).toBeGreaterThan(0);
    // argon at rest at 273.15 K, n = 7.07e22 m^-3: the fields sampled so far are those of the gas
    const t = await service.getFieldSlice({ runId: stopped, field: 'T', axis: 'z' });
    expect(t.samples).toBe(step);
    expect(t.min).toBeGreaterThan(200);
    expect(t.max).toBeLessThan(350);
    const n = await service.getFieldSlice({ runId: stopped, field: 'n', axis: 'z' });
    expect(n.min).toBeGreaterThan(0.5 * 7.07043e22);
    expect(n.max).toBeLessThan(1.5 * 7.07043e22);
  }, 300_000);

  it('exports the stopped run to VTK, HTML and JSON like a completed run', async () => {
    const vtk = await service.exportRun({ runId: stopped, format: 'vtk' });
    const text = Buffer.from(vtk.base64, 'base64').toString('utf8');
    expect(vtk.fileName).toMatch(/\.vti$/);
    expect(text).toContain('<VTKFile type="ImageData"');
    expect(text).toContain('Name="T"');
    const html = Buffer.from((await service.exportRun({ runId: stopped, format: 'html' })).base64, 'base64').toString('utf8');
    expect(html).toContain('stopped by the user at step');
    const json = JSON.parse(Buffer.from((await service.exportRun({ runId: stopped, format: 'json' })).base64, 'base64').toString('utf8'));
    expect(JSON.stringify(json)).toContain('"status":"cancelled"');
  }, 120_000);

  it('compares the stopped run with a completed one (fields, profile)', async () => {
    const done = (await service.launchRun({ project: 'keep', caseJson: await tinyCase(60, 3), ranks: 1, decomposition: 'slab' })).runId;
    expect((await ended(done)).status).toBe('completed');
    const r = await service.compareRuns({ runIds: [stopped, done] });
    expect(r.comparison.runs.map((x) => x.status)).toEqual(['cancelled', 'completed']);
    expect(r.fieldNames).toEqual(expect.arrayContaining(['n', 'T', 'p']));
    // stopped at step 100 of 100000, it closed none of the 20 batch-means blocks its sampling was planned in: no
    // standard errors yet, so no difference map in standard errors (the error says why and what has them)
    await expect(service.compareFieldSlice({ runIds: [stopped, done], field: 'T', axis: 'z' }))
      .rejects.toThrow(new RegExp(`run ${stopped} has no standard errors: it closed 0 batch-means blocks .*it was stopped by the user at step \\d+ .*a run stopped later in its sampling`));
  }, 300_000);

  it('keeps a two-rank run stopped from the app: every rank after the same submit, the fields of both', async () => {
    const id = (await service.launchRun({ project: 'keep', caseJson: await tinyCase(100_000, 7), ranks: 2, decomposition: 'slab' })).runId;
    await reached(id, 60);
    await service.cancelRun({ runId: id });
    const end = await ended(id);
    expect(end.status).toBe('cancelled');
    expect(end.reason).toMatch(/^stopped by the user at step \d+ of 100000 \(from the app\); the fields, profile and surface loads sampled so far are kept$/);
    const step = Number(/at step (\d+)/.exec(end.reason!)![1]);
    expect(step).toBeGreaterThanOrEqual(60);
    expect(step % 10).toBe(0); // after a whole submit of 10 steps
    const detail = await service.getRun({ runId: id });
    expect(detail.run).toMatchObject({ status: 'cancelled', ranks: 2, lastStep: step });
    expect(detail.run.summary?.steps).toBe(step);
    expect(detail.hasFields).toBe(true);
    // argon at rest at 273.15 K in every cell of both ranks' halves
    const t = await service.getFieldSlice({ runId: id, field: 'T', axis: 'z' });
    expect(t.samples).toBe(step);
    expect(t.values.every((v) => v !== null && v > 150 && v < 450)).toBe(true);
  }, 300_000);

  it('resumes a stopped and kept run from its checkpoint: the full run\'s results replace the kept ones', async () => {
    const c = await tinyCase(300, 5);
    (c.run as Record<string, number>).checkpointEvery = 20;
    const id = (await service.launchRun({ project: 'keep', caseJson: c, ranks: 1, decomposition: 'slab' })).runId;
    await reached(id, 100);
    await service.cancelRun({ runId: id });
    expect((await ended(id)).reason).toMatch(/stopped by the user at step \d+ of 300/);
    const kept = await service.getRun({ runId: id });
    expect(kept.hasFields).toBe(true);
    // stopped past a tenth of its sampling: two or more batch-means blocks closed, so it has standard errors and a
    // difference map in them
    const other = (await service.launchRun({ project: 'keep', caseJson: await tinyCase(300, 6), ranks: 1, decomposition: 'slab' })).runId;
    expect((await ended(other)).status).toBe('completed');
    const z = await service.compareFieldSlice({ runIds: [id, other], field: 'T', axis: 'z' });
    expect(z.values.filter((v) => v !== null).length).toBe(36);
    expect(kept.resumeFromStep).toBeGreaterThanOrEqual(20);
    const resumed = new Promise<Extract<RunEvent, { kind: 'ended' }>>((resolve) => {
      const off = service.onEvent((e) => { if (e.kind === 'ended' && e.runId === id && e.status !== 'cancelled') { off(); resolve(e); } });
    });
    await service.resumeRun({ runId: id });
    const end = await resumed;
    expect(end.reason).toBeNull();
    expect(end.status).toBe('completed');
    const full = await service.getRun({ runId: id });
    expect(full.run.reason).toBeNull();
    expect((await service.getFieldSlice({ runId: id, field: 'n', axis: 'z' })).samples).toBe(300);
  }, 300_000);
});
