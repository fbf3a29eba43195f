// The contract's implementation against a temporary run database: projects, the live case check, launching
// tiny runs in child processes on the default adapter (lavapipe in CI) with their live events, cancel,
// run detail, field slices, comparison and exports. Needs the built child (npm run build).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src-main/common/contract/contract.js';
import type { RunEvent } from '../../src-main/common/contract/types.js';
import { StudioService } from '../../src-main/services/studio-service.js';

let dir: string;
let service: StudioService;
const events: RunEvent[] = [];

/** The collide-box preset shrunk to 6x6x6 cells and `steps` steps. */
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

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dsmc-service-'));
  service = new StudioService({ dataDir: dir });
  service.onEvent((e) => events.push(e));
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('projects', () => {
  it('creates, renames, archives and restores projects; refuses duplicates and missing ones by name', async () => {
    await service.createProject({ name: 'alpha' });
    await expect(service.createProject({ name: 'alpha' })).rejects.toThrow('a project named "alpha" already exists');
    await service.createProject({ name: 'beta' });
    expect((await service.renameProject({ name: 'alpha', newName: 'gamma' })).name).toBe('gamma');
    await expect(service.renameProject({ name: 'gamma', newName: 'beta' })).rejects.toThrow('"beta" already exists');
    await expect(service.renameProject({ name: 'nope', newName: 'x' })).rejects.toThrow('project "nope" not found');
    expect((await service.archiveProject({ name: 'beta', archived: true })).archived).toBe(true);
    expect((await service.listProjects({})).map((p) => p.name)).toEqual(['gamma']);
    expect((await service.listProjects({ includeArchived: true })).map((p) => p.name)).toEqual(['beta', 'gamma']);
    await service.archiveProject({ name: 'beta', archived: false });
    expect((await service.listProjects({})).map((p) => p.name)).toEqual(['beta', 'gamma']);
  });

  it('validates requests at the boundary, naming the field', async () => {
    await expect(dispatch(service, 'createProject', { name: '  ' })).rejects.toThrow('createProject: name: project name must not be empty');
    await expect(dispatch(service, 'getRun', { runId: -1 })).rejects.toThrow('getRun: runId');
    await expect(dispatch(service, 'exportRun', { runId: 1, format: 'docx' })).rejects.toThrow('format: expected one of html, csv, json, pdf, vtk');
    await expect(dispatch(service, 'dropTables', {})).rejects.toThrow('unknown contract method "dropTables"');
  });
});

describe('case check', () => {
  it('names each schema problem by its field path', async () => {
    const c = await tinyCase(10);
    (c.grid as { cells: unknown[] }).cells[1] = -3;
    const r = await service.checkCase({ caseJson: c });
    expect(r.ok).toBe(false);
    expect(r.prelaunch).toBeNull();
    expect(r.issues.map((i) => i.path)).toEqual(['grid.cells[1]']);
  });

  it('returns the pre-launch warnings of a too-large timestep with the field to change', async () => {
    const c = await tinyCase(10);
    (c.run as Record<string, number>).dt = 1e-6;
    const r = await service.checkCase({ caseJson: c });
    expect(r.ok).toBe(true);
    expect(r.prelaunch!.warnings.map((w) => `${w.code}:${w.field}`)).toContain('dt-residence:run.dt');
    expect(r.adapter).not.toBe('');
  });
});

describe('runs followed through the database', () => {
  it('shows the progress, per-rank particles and UN of a run this server did not start (multi-rank, or before a restart)', async () => {
    const c = await tinyCase(100);
    const id = service.store.createRun({
      project: 'beta', caseName: 'collide-box', caseJson: c, seed: 1, ranks: 2, gpus: 2,
      adapter: { description: 'test', backend: 'none' }, productVersion: '0.0.0',
    });
    const steps = [1, 2, 3, 4].map((step) => ({ step, particles: 200, injected: 0, collisions: 10, candidates: 20 }));
    service.store.appendSteps(id, steps, []);
    service.store.appendRankSteps(id, steps.flatMap(({ step }) => [
      { rank: 0, step, particles: 120, sent: 2, received: 1, waitSeconds: 0.001 },
      { rank: 1, step, particles: 80, sent: 1, received: 2, waitSeconds: 0.002 },
    ]));
    const live = await service.getLiveRun({ runId: id });
    expect(live.progress).toMatchObject({ runId: id, status: 'running', step: 4, steps: 100, particles: 200 });
    expect(live.progress.etaSeconds).not.toBeNull();
    expect(live.ranks).toBe(2);
    expect(live.balance!.perRank.map((r) => r.meanParticles)).toEqual([120, 80]);
    expect(live.balance!.loadNonUniformity!.meanPercent).toBeCloseTo(40, 10);
    expect(live.steps).toHaveLength(4);
    await expect(service.cancelRun({ runId: id })).rejects.toThrow('started elsewhere');
    service.store.finishRun(id, 'failed', 'test over');
  });
});

describe('runs launched in a child process', () => {
  let first = 0;
  let second = 0;

  it('runs a tiny case to completion with progress and step events, and records it like dsmc run', async () => {
    first = (await service.launchRun({ project: 'beta', caseJson: await tinyCase(200), ranks: 1, decomposition: 'slab' })).runId;
    const end = await ended(first);
    expect(end.status).toBe('completed');
    const mine = events.filter((e) => (e.kind === 'progress' ? e.progress.runId : e.runId) === first);
    const steps = mine.flatMap((e) => (e.kind === 'steps' ? e.steps : []));
    expect(steps.map((s) => s.step)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(mine.some((e) => e.kind === 'progress' && e.progress.status === 'running' && e.progress.step > 0 && e.progress.particleStepsPerSecond > 0)).toBe(true);
    const fields = mine.filter((e): e is Extract<RunEvent, { kind: 'field' }> => e.kind === 'field');
    expect(fields.length).toBeGreaterThan(0);
    expect(fields[0].slice).toMatchObject({ field: 'n', axis: 'z', index: 3, width: 6, height: 6 });
    // per-phase time while the run goes, cumulative, from the loop after every submit
    const phases = mine.filter((e): e is Extract<RunEvent, { kind: 'phases' }> => e.kind === 'phases');
    expect(phases.length).toBeGreaterThan(1);
    const last = phases[phases.length - 1].phases;
    expect(last.map((p) => p.phase)).toEqual(expect.arrayContaining(['move', 'sort', 'collide']));
    const move = (k: number) => phases[k].phases.find((p) => p.phase === 'move')!.seconds;
    expect(move(phases.length - 1)).toBeGreaterThan(move(0));
    const detail = await service.getRun({ runId: first });
    expect(detail.run.status).toBe('completed');
    expect(detail.run.project).toBe('beta');
    expect(detail.hasFields).toBe(true);
    expect(detail.profile.phaseTable.rows.map((r) => r.phase)).toContain('collide');
    const live = await service.getLiveRun({ runId: first });
    expect(live.progress).toMatchObject({ status: 'completed', step: 200, steps: 200 });
    expect(live.steps).toHaveLength(200);
  });

  it('slices the sampled fields on a plane (middle by default) and refuses a plane outside the grid', async () => {
    const s = await service.getFieldSlice({ runId: first, field: 'n', axis: 'x' });
    expect([s.width, s.height, s.index, s.depth, s.axes]).toEqual([6, 6, 3, 6, ['y', 'z']]);
    expect(s.values.every((v) => v !== null && v > 0)).toBe(true);
    expect(s.min).toBeGreaterThan(0.5 * 7.07043e22);
    expect(s.max).toBeLessThan(1.5 * 7.07043e22);
    await expect(service.getFieldSlice({ runId: first, field: 'n', axis: 'z', index: 6 })).rejects.toThrow('use 0 to 5');
  });

  it('cancels a running run: recorded cancelled with the steps it got through', async () => {
    second = (await service.launchRun({ project: 'beta', caseJson: await tinyCase(100_000, 2), ranks: 1, decomposition: 'slab' })).runId;
    await new Promise<void>((resolve) => {
      const off = service.onEvent((e) => { if (e.kind === 'steps' && e.runId === second) { off(); resolve(); } });
    });
    // live fields: a slice of the fields so far, of the field and plane the view asks for
    const slice = new Promise<Extract<RunEvent, { kind: 'field' }>>((resolve) => {
      const off = service.onEvent((e) => { if (e.kind === 'field' && e.runId === second && e.slice.field === 'T') { off(); resolve(e); } });
    });
    await service.setLiveView({ runId: second, field: 'T', axis: 'x', index: 1 });
    const got = (await slice).slice;
    expect([got.axis, got.index, got.width, got.height, got.unit]).toEqual(['x', 1, 6, 6, 'K']);
    expect(got.samples).toBeGreaterThan(0);
    // argon at rest at 273.15 K: every cell near it even early on
    expect(got.min).toBeGreaterThan(150);
    expect(got.max).toBeLessThan(450);
    await service.cancelRun({ runId: second });
    const end = await ended(second);
    expect(end.status).toBe('cancelled');
    const run = (await service.getRun({ runId: second })).run;
    expect(run.status).toBe('cancelled');
    expect(run.lastStep).toBeGreaterThan(0);
    await expect(service.cancelRun({ runId: second })).rejects.toThrow(`run ${second} is not running in this app`);
    await expect(service.setLiveView({ runId: second, field: 'n', axis: 'z' })).rejects.toThrow('has no live fields; open its run detail');
  });

  it('resumes a cancelled run from its checkpoint (the resume button): the run completes with every step recorded once', async () => {
    const c = await tinyCase(400, 5);
    (c.run as Record<string, number>).checkpointEvery = 20;
    const id = (await service.launchRun({ project: 'beta', caseJson: c, ranks: 1, decomposition: 'slab' })).runId;
    // let it pass a few checkpoints, then cancel
    await new Promise<void>((resolve) => {
      const off = service.onEvent((e) => { if (e.kind === 'steps' && e.runId === id && e.steps.some((x) => x.step >= 60)) { off(); resolve(); } });
    });
    await service.cancelRun({ runId: id });
    expect((await ended(id)).status).toBe('cancelled');
    const before = await service.getRun({ runId: id });
    expect(before.resumeFromStep).toBeGreaterThanOrEqual(20);
    expect(before.resumeFromStep! % 10).toBe(0);
    const resumed = new Promise<Extract<RunEvent, { kind: 'ended' }>>((resolve) => {
      const off = service.onEvent((e) => { if (e.kind === 'ended' && e.runId === id) { off(); resolve(e); } });
    });
    // the resumed run shows its fields live too: the checkpoint's samples plus the new ones
    const slices: Extract<RunEvent, { kind: 'field' }>[] = [];
    const offSlices = service.onEvent((e) => { if (e.kind === 'field' && e.runId === id) slices.push(e); });
    expect((await service.resumeRun({ runId: id })).runId).toBe(id);
    const end = await resumed;
    offSlices();
    expect(end.status, end.reason ?? '').toBe('completed');
    expect(slices.length).toBeGreaterThan(0);
    // one submit samples 10 steps (stepsPerSubmit 10, every step sampled): more comes from the checkpoint
    expect(slices[0].slice.samples).toBeGreaterThan(10);
    const after = await service.getRun({ runId: id });
    expect(after.run.status).toBe('completed');
    expect(after.resumeFromStep).toBeNull();
    expect(after.profile.steps.map((x) => x.step)).toEqual(Array.from({ length: 400 }, (_, k) => k + 1));
    await expect(service.resumeRun({ runId: id })).rejects.toThrow('has no checkpoint to resume from');
  });

  it('refuses to launch an invalid case, naming the field, and records nothing', async () => {
    const c = await tinyCase(10);
    (c.run as Record<string, unknown>).dt = 'soon';
    const before = (await service.listRuns({})).length;
    await expect(service.launchRun({ project: 'beta', caseJson: c, ranks: 1, decomposition: 'slab' })).rejects.toThrow('run.dt');
    expect((await service.listRuns({})).length).toBe(before);
  });

  it('compares two completed runs and maps their field difference in standard errors', async () => {
    const third = (await service.launchRun({ project: 'beta', caseJson: await tinyCase(200, 3), ranks: 1, decomposition: 'slab' })).runId;
    expect((await ended(third)).status).toBe('completed');
    const r = await service.compareRuns({ runIds: [first, third] });
    expect(r.comparison.caseDifferences.map((d) => d.path)).toEqual(['run.seed']);
    expect(r.curves.map((c) => c.steps.length)).toEqual([200, 200]);
    // the difference map offers the fields both runs hold: those of the run's detail (a monatomic gas: no Trot/Tvib)
    const names = (await service.getRun({ runId: first })).fieldNames!;
    expect(names.length).toBeGreaterThan(0);
    expect(r.fieldNames).toEqual(names);
    expect(r.fieldNames).not.toContain('Tvib');
    // the second was stopped and kept (cancelRun): it kept the fields it sampled, and compares like a completed run
    expect((await service.compareRuns({ runIds: [first, second] })).fieldNames).toEqual(names);
    const z = await service.compareFieldSlice({ runIds: [first, third], field: 'T', axis: 'z' });
    expect(z.unit).toBe('z');
    // two seeds of the same case differ by noise: most cells within 3 standard errors
    const finite = z.values.filter((v): v is number => v !== null);
    expect(finite.length).toBeGreaterThan(30);
    expect(finite.filter((v) => Math.abs(v) > 3).length / finite.length).toBeLessThan(0.2);
    // ... but, stopped early in its sampling, no standard errors yet: no difference map in them, and the error says why
    await expect(service.compareFieldSlice({ runIds: [first, second], field: 'T', axis: 'z' })).rejects.toThrow(`run ${second} has no standard errors`);
    // a run that sampled nothing has no difference map, and the error says so
    const unsampled = await tinyCase(20, 4);
    (unsampled as { sampling?: unknown }).sampling = { enabled: false };
    const none = (await service.launchRun({ project: 'beta', caseJson: unsampled, ranks: 1, decomposition: 'slab' })).runId;
    expect((await ended(none)).status).toBe('completed');
    await expect(service.compareFieldSlice({ runIds: [first, none], field: 'T', axis: 'z' })).rejects.toThrow(`run ${none} has no sampled fields`);
  });

  it('lists scaling studies and builds the scaling report of one', async () => {
    expect(await service.listStudies({})).toEqual([]);
    const run = (await service.getRun({ runId: first })).run;
    const study = service.store.createStudy({ name: 'tiny-strong', kind: 'strong', project: 'beta', caseName: run.caseName, caseHash: run.caseHash });
    service.store.addStudyRun(study.id, first, 1);
    service.store.addStudyRun(study.id, second, 2);
    expect(await service.listStudies({})).toEqual([{ id: study.id, name: 'tiny-strong', kind: 'strong', project: 'beta', caseName: 'collide-box', gpus: [1, 2] }]);
    const report = await service.getScaling({ studyId: study.id });
    expect(report.points.map((p) => [p.gpus, p.runId, p.speedup])).toEqual([[1, first, 1]]);
    expect(report.skipped).toEqual([{ runId: second, gpus: 2, reason: expect.stringContaining('it is cancelled') }]);
  });

  it('exports the HTML report, the CSV and the fields as VTK', async () => {
    const html = await service.exportRun({ runId: first, format: 'html' });
    expect(html.fileName).toBe(`run-${first}-profile.html`);
    expect(Buffer.from(html.base64, 'base64').toString()).toMatch(/^<!doctype html>[\s\S]*collide-box/i);
    const csv = Buffer.from((await service.exportRun({ runId: first, format: 'csv' })).base64, 'base64').toString();
    expect(csv).toContain('collide');
    const vti = await service.exportRun({ runId: first, format: 'vtk' });
    expect(vti.fileName).toBe(`run-${first}-fields.vti`);
    expect(Buffer.from(vti.base64, 'base64').toString()).toContain('<VTKFile type="ImageData"');
  });

  it('cancels its runs when the host shuts down, so they are recorded cancelled rather than failed later', async () => {
    const other = new StudioService({ dataDir: dir });
    const { runId } = await other.launchRun({ project: 'beta', caseJson: await tinyCase(100_000, 4), ranks: 1, decomposition: 'slab' });
    await new Promise<void>((resolve) => {
      const off = other.onEvent((e) => { if (e.kind === 'steps' && e.runId === runId) { off(); resolve(); } });
    });
    await other.close();
    expect((await service.getRun({ runId })).run).toMatchObject({ status: 'cancelled' });
  });

  it('launches a multi-rank run through dsmc run --ranks and follows it through the database to the end', async () => {
    const gpus = await service.listGpus();
    expect(gpus.length).toBeGreaterThan(0);
    expect(gpus[0]).toMatchObject({ index: 0 });
    expect(gpus[0].description).not.toBe('');
    await expect(service.launchRun({ project: 'beta', caseJson: await tinyCase(100), ranks: 2, gpus: [0, 99], decomposition: 'slab' }))
      .rejects.toThrow('GPU 99 does not exist; this machine lists 0 (');
    const { runId } = await service.launchRun({ project: 'beta', caseJson: await tinyCase(100, 5), ranks: 2, gpus: [0], decomposition: 'block', rebalance: 'off' });
    const end = await ended(runId);
    expect(end).toMatchObject({ status: 'completed', reason: null });
    const run = (await service.getRun({ runId })).run;
    expect(run).toMatchObject({ ranks: 2, project: 'beta', seed: 5 });
    // the rebalancing asked for reached the run: its summary says the first split was kept, and why
    expect(run.summary?.balance?.reason).toMatch(/^block \(--decomposition block\); .*; no rebalancing \(--rebalance off\)$/);
    expect(run.summary?.balance?.rebalancePercent).toBeNull();
    const live = await service.getLiveRun({ runId });
    expect(live.progress).toMatchObject({ status: 'completed', step: 100 });
    expect(live.balance?.perRank.length).toBe(2);
    expect(events.some((e) => e.kind === 'progress' && e.progress.runId === runId)).toBe(true);
    // the case file handed to dsmc run is removed when it exits
    await expect.poll(() => readdirSync(join(dir, 'launched-cases'))).toEqual([]);
  });

  it('shows a multi-rank run\'s assembled fields live and follows the chosen view', async () => {
    const { runId } = await service.launchRun({ project: 'beta', caseJson: await tinyCase(100_000, 6), ranks: 2, decomposition: 'slab' });
    const first = new Promise<Extract<RunEvent, { kind: 'field' }>>((resolve) => {
      const off = service.onEvent((e) => { if (e.kind === 'field' && e.runId === runId) { off(); resolve(e); } });
    });
    expect((await first).slice.field).toBe('n');
    const chosen = new Promise<Extract<RunEvent, { kind: 'field' }>>((resolve) => {
      const off = service.onEvent((e) => { if (e.kind === 'field' && e.runId === runId && e.slice.field === 'T') { off(); resolve(e); } });
    });
    await service.setLiveView({ runId, field: 'T', axis: 'x', index: 1 });
    const got = (await chosen).slice;
    expect([got.axis, got.index, got.width, got.height, got.unit]).toEqual(['x', 1, 6, 6, 'K']);
    expect(got.samples).toBeGreaterThan(0);
    // argon at rest at 273.15 K, assembled from both ranks' cells
    expect(got.min).toBeGreaterThan(150);
    expect(got.max).toBeLessThan(450);
    await service.cancelRun({ runId });
    expect((await ended(runId)).status).toBe('cancelled');
  });
});
