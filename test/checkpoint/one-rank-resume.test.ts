// One rank in process: a run stopped after a checkpoint and resumed from it gives bitwise the fields,
// standard errors, step statistics, particle totals and surface sums (walls and bodies) of a run that never stopped; checkpointing itself
// changes nothing; a damaged newest checkpoint is refused naming its file and the one before it is used.
import { mkdtempSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../../src-main/common/case-schema.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { fieldsSha256 } from '../../src-main/solver/fields.js';
import { RunCancelled, type StepStats } from '../../src-main/solver/loop-types.js';
import { stepsPerSubmit } from '../../src-main/solver/submit-plan.js';
import { runCase, type CaseRun } from '../../src-main/solver/run-case.js';
import { checkpointSteps, latestCheckpoint, stepFolder, verifyCheckpoint } from '../../src-main/solver/checkpoint/checkpoint-folder.js';
import { loadResumePoint } from '../../src-main/solver/checkpoint/checkpoint-load.js';
import { CheckpointCorrupt } from '../../src-main/solver/checkpoint/checkpoint-codec.js';
import { gpuForTests, presetCase } from '../physics/harness.js';
import { Simulation } from '../../src-main/solver/loop.js';

let gpu: Gpu;
const dirs: string[] = [];
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => {
  gpu?.device.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the file's tests. */
function tempFolder(): string {
  const d = mkdtempSync(join(tmpdir(), 'dsmc-ckpt-'));
  dirs.push(d);
  return d;
}

/** The step statistics compared bitwise. */
function stats(steps: StepStats[]) {
  return steps.map((s) => [s.step, s.particlesBefore, s.injected, s.particlesAfter, s.collisions, s.candidates, s.reactions, s.products]);
}

/** Everything a run's result is compared by. */
function outcome(r: CaseRun['result']) {
  return {
    sha: fieldsSha256(r.fields), errors: fieldsSha256(r.fieldErrors), blocks: r.fieldBlocks, samples: r.samples, totals: JSON.stringify(r.totalsOverTime), start: JSON.stringify(r.start),
    surface: Buffer.from(r.surface.values.buffer).toString('base64'), surfaceTime: r.surface.sampledTime,
    reactions: JSON.stringify(r.reactionCounts ?? null),
  };
}

const cases: [string, () => Case][] = [
  ['collide box', () => presetCase('collide-box', ['grid.cells=[12,10,8]', 'run.steps=40', 'run.stepsPerSubmit=4', 'sampling.start=5', 'run.checkpointEvery=10'])],
  ['walled inflow/outflow channel', () => presetCase('free-stream', [
    'grid.cells=[16,6,4]', 'run.steps=60', 'run.stepsPerSubmit=3', 'sampling.start=20', 'run.checkpointEvery=10',
    'boundaries.ymin={"type":"diffuse","temperature":500}', 'boundaries.ymax={"type":"diffuse","temperature":300,"velocity":[200,0,0]}',
  ])],
  // vibration relaxing fast (Zvib 5) by a hot wall: the sampled sums of E_rot and E_vib and the Trot, Tvib, Tall fields
  // (in the fields' and errors' hashes) hold values to compare
  ['rotating and vibrating N2 in a walled inflow channel', () => presetCase('free-stream', [
    'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]', 'grid.cells=[16,6,4]', 'run.steps=60',
    'run.stepsPerSubmit=3', 'sampling.start=20', 'run.checkpointEvery=10',
    'boundaries.ymin={"type":"diffuse","temperature":1500}', 'boundaries.ymax={"type":"diffuse","temperature":300}',
  ])],
  ['vibrating N2 relaxing in the collide box (Zvib 5, 3000 K, vibration started at 500 K)', () => presetCase('collide-box', [
    'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]', 'initial.temperature=3000',
    'initial.vibrationalTemperature=500', 'run.dt=4e-9', 'grid.cells=[12,10,8]', 'run.steps=40', 'run.stepsPerSubmit=4', 'sampling.start=5', 'run.checkpointEvery=10',
  ])],
  // dissociations make particles (appended after the collisions until the next sort) and exchanges change species: a
  // checkpoint holds the particles in cell order, the step's products placed after their cells' particles
  ['reacting air at 20,000 K (air5)', () => presetCase('reacting-air', [
    'grid.cells=[12,10,8]', 'particles.perCell=12', 'run.steps=40', 'run.stepsPerSubmit=4', 'sampling.enabled=true', 'sampling.start=5', 'run.checkpointEvery=10',
  ])],
  // a mixture: its per-species fields and their batch means (in the hashes) and particles per species (in the totals)
  ['Ar + He in a walled inflow channel', () => presetCase('free-stream', [
    'species=[{"use":"Ar"},{"use":"He"}]', 'grid.cells=[16,6,4]', 'run.steps=60', 'run.stepsPerSubmit=3', 'sampling.start=20', 'run.checkpointEvery=10',
    'boundaries.xmin={"type":"inflow","numberDensity":1e20,"temperature":300,"velocity":[1060.4,0,0],"fractions":{"Ar":0.7,"He":0.3}}',
    'boundaries.ymin={"type":"diffuse","temperature":500}', 'boundaries.ymax={"type":"diffuse","temperature":300,"velocity":[200,0,0]}',
  ])],
  ['channel with a diffuse block in the flow', () => presetCase('free-stream', [
    'grid.cells=[16,6,4]', 'run.steps=60', 'run.stepsPerSubmit=3', 'sampling.start=20', 'run.checkpointEvery=10',
    'bodies=[{"name":"block","shape":{"type":"box","min":[0.02,0.006,0.004],"max":[0.03,0.017,0.012]},"surface":{"model":"diffuse","temperature":400}}]',
  ])],
];

describe.each(cases)('%s', (_name, makeCase) => {
  let reference: CaseRun;
  beforeAll(async () => {
    const c = makeCase();
    reference = await runCase({ ...c, run: { ...c.run, checkpointEvery: 0 } }, { gpu, timing: 'off' });
    expect(reference.result.samples).toBeGreaterThan(0);
    // a molecular gas samples its internal temperatures (covered by the hashes below), a monatomic one has none
    const molecular = c.species.some((s) => s.rotationalDof > 0);
    expect(reference.result.fields.Tvib !== undefined && reference.result.fieldErrors.Tvib !== undefined).toBe(molecular);
    if (molecular) for (const name of ['Trot', 'Tvib', 'Tall'] as const) expect(Math.max(...reference.result.fields[name]!), name).toBeGreaterThan(0);
    // a mixture samples its species' fields and counts its particles per species
    if (c.species.length > 1) {
      const last = c.species[c.species.length - 1].name;
      expect(Math.max(...reference.result.fieldErrors[`x_${last}`]!.filter(Number.isFinite))).toBeGreaterThan(0);
      expect(reference.result.totalsOverTime.at(-1)!.totals.speciesCounts![c.species.length - 1]).toBeGreaterThan(0);
    }
  });

  it('checkpoints change nothing, land on submit boundaries and only the newest two are kept', async () => {
    const folder = tempFolder();
    const run = await runCase(makeCase(), { gpu, timing: 'off', checkpoints: { folder } });
    expect(outcome(run.result)).toEqual(outcome(reference.result));
    const steps = checkpointSteps(folder);
    expect(steps).toHaveLength(2);
    const c = makeCase();
    const chunk = stepsPerSubmit(c);
    expect(steps[0] % chunk).toBe(0);
    // the newest is the first submit boundary at or after the last multiple of checkpointEvery below the end
    const lastMultiple = Math.floor((c.run.steps - 1) / c.run.checkpointEvery) * c.run.checkpointEvery;
    expect(steps[0]).toBe(Math.ceil(lastMultiple / chunk) * chunk);
    expect(steps[1]).toBe(Math.ceil((lastMultiple - c.run.checkpointEvery) / chunk) * chunk);
    expect(readdirSync(stepFolder(folder, steps[0])).sort()).toEqual(['loop.bin', 'manifest.json', 'rank-0.bin']);
  });

  it.each([13, 27])('stopped at step %i and resumed gives bitwise the uninterrupted result', async (stopAt) => {
    const folder = tempFolder();
    const c = makeCase();
    const controller = new AbortController();
    const before: StepStats[] = [];
    await expect(runCase(c, {
      gpu, timing: 'off', checkpoints: { folder }, signal: controller.signal,
      onSteps: (s) => { before.push(...s); if (s[s.length - 1].step >= stopAt) controller.abort(); },
    })).rejects.toBeInstanceOf(RunCancelled);
    const point = loadResumePoint(latestCheckpoint(folder, () => { throw new Error('nothing should be refused'); }), c);
    expect(point.loop.step).toBeLessThanOrEqual(stopAt);
    expect(point.loop.step).toBeGreaterThan(0);
    const resumed = await runCase(c, { gpu, timing: 'off', checkpoints: { folder }, resume: point });
    const joined = [...before.filter((s) => s.step <= point.loop.step), ...resumed.result.stepStats];
    expect(stats(joined)).toEqual(stats(reference.result.stepStats));
    expect(outcome(resumed.result)).toEqual(outcome(reference.result));
  });

  it('a damaged newest checkpoint is refused naming the file and the previous one resumes bitwise', async () => {
    const folder = tempFolder();
    const c = makeCase();
    const controller = new AbortController();
    const before: StepStats[] = [];
    await expect(runCase(c, {
      gpu, timing: 'off', checkpoints: { folder }, signal: controller.signal,
      onSteps: (s) => { before.push(...s); if (s[s.length - 1].step >= 35) controller.abort(); },
    })).rejects.toBeInstanceOf(RunCancelled);
    const [newest, previous] = checkpointSteps(folder);
    expect(previous).toBeLessThan(newest);
    const rankPath = join(stepFolder(folder, newest), 'rank-0.bin');
    truncateSync(rankPath, 100);
    expect(() => verifyCheckpoint(stepFolder(folder, newest))).toThrow(CheckpointCorrupt);
    expect(() => verifyCheckpoint(stepFolder(folder, newest))).toThrow(rankPath);
    const refused: string[] = [];
    const point = loadResumePoint(latestCheckpoint(folder, (e) => refused.push(e.message)), c);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain(rankPath);
    expect(point.loop.step).toBe(previous);
    const resumed = await runCase(c, { gpu, timing: 'off', checkpoints: { folder }, resume: point });
    const joined = [...before.filter((s) => s.step <= previous), ...resumed.result.stepStats];
    expect(stats(joined)).toEqual(stats(reference.result.stepStats));
    expect(outcome(resumed.result)).toEqual(outcome(reference.result));
  });
});

describe('a molecular gas\'s checkpoint from before the internal energies were sampled', () => {
  it('is refused with what happened and what to do, not an internal error', async () => {
    const c = presetCase('collide-box', [
      'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]',
      'grid.cells=[6,6,6]', 'run.steps=6', 'sampling.start=2',
    ]);
    const sim = new Simulation(gpu, c);
    await sim.initialize();
    await sim.run({ timing: 'off' });
    const snap = await sim.snapshot();
    // such a checkpoint holds the 13 velocity moments per species and cell only
    const old = 13 * 216;
    const sampling = snap.sampling!;
    const older = { ...snap, sampling: { ...sampling, runLo: sampling.runLo.slice(0, old), runHi: sampling.runHi.slice(0, old), blockLo: sampling.blockLo.slice(0, old), blockHi: sampling.blockHi.slice(0, old) } };
    const again = new Simulation(gpu, c);
    expect(() => again.restore(older)).toThrow(/holds 13 sampled sums per cell, this case samples 15 .*written before the rotational and vibrational energies were sampled.*run the case again/);
    // the checkpoint as written resumes
    expect(() => new Simulation(gpu, c).restore(snap)).not.toThrow();
  });
});
