// The sampled moments are accumulated on the GPU in exact 64-bit fixed point (sample.wgsl): a million sampling
// passes of a cell of 1000 particles add up to exactly a million times one pass (no f32 drift), where an f32
// running sum would be far off; sample_close's block fields equal fields.ts's on the same sums; the batch means'
// standard error is sigma / sqrt(blocks); and the live view's plane read from the GPU equals the run's fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case } from '../../src-main/common/case-schema.js';
import { cellVolume } from '../../src-main/common/case-schema.js';
import { FieldAccumulator, momentUnscales, welfordUnits } from '../../src-main/solver/field-accumulator.js';
import { FIELD_NAMES, emptyFields, fieldsSha256, fillFields } from '../../src-main/solver/fields.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { SAMPLE_MOMENTS } from '../../src-main/solver/gpu/struct-layouts.js';
import { Simulation } from '../../src-main/solver/loop.js';
import type { SamplePhase } from '../../src-main/solver/phases/sample.js';
import { emptySampleState, sampleLayout, type SampleState } from '../../src-main/solver/sample-buffers.js';
import { gpuForTests, presetCase, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** The simulation's sampling phase (private; driven alone here). */
function samplePhase(sim: Simulation): SamplePhase {
  return (sim as unknown as { sample: SamplePhase }).sample;
}

/** Records `passes` sampling passes of the live set, `perSubmit` to a submit, and waits for them. */
async function samplePasses(sim: Simulation, passes: number, perSubmit = 20_000): Promise<void> {
  const device = gpu.device;
  for (let done = 0; done < passes;) {
    const n = Math.min(perSubmit, passes - done);
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    for (let k = 0; k < n; k++) samplePhase(sim).encode(pass, sim.state.current);
    pass.end();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    done += n;
  }
}

/** The whole sampling state as the GPU holds it (the loop's read skips an empty block; here every part is read). */
async function readAll(sim: Simulation): Promise<SampleState> {
  const { state, overflow } = await sim.state.sample.read();
  expect(overflow).toBe(false);
  return state;
}

/** The 64-bit integer at index i of (lo, hi) word arrays. */
function int64(lo: Uint32Array, hi: Uint32Array, i: number): bigint {
  return BigInt.asIntN(64, (BigInt(hi[i]) << 32n) | BigInt(lo[i]));
}

/** One cell of 1000 argon molecules drifting at (300, -50, 20) m/s, sampled. */
function oneCell(): Case {
  return presetCase('collide-box', [
    'grid.cells=[1,1,1]', 'grid.cellSize=[1e-4,1e-4,1e-4]', 'initial.numberDensity=7.07043e22', 'particles.perCell=1000',
    'initial.velocity=[300,-50,20]', 'sampling.start=1', 'sampling.interval=1', 'run.steps=10',
  ]);
}

describe('GPU accumulation of the sampled moments', () => {
  it('a million passes of a 1000-particle cell sum to exactly a million times one pass (no f32 drift)', async () => {
    const c = oneCell();
    const sim = new Simulation(gpu, c);
    await sim.initialize();
    const particles = sim.liveParticles;
    expect(particles).toBeGreaterThan(900);
    const one = await (async () => { await samplePasses(sim, 1); return readAll(sim); })();
    const N = 1_000_000;
    await samplePasses(sim, N - 1);
    const all = await readAll(sim);
    // the same particles every pass: the 64-bit sums are exactly N times one pass's, moment by moment
    for (let m = 0; m < SAMPLE_MOMENTS; m++) {
      expect(int64(all.blockLo, all.blockHi, m), `moment ${m}`).toBe(BigInt(N) * int64(one.blockLo, one.blockHi, m));
    }
    expect(int64(all.blockLo, all.blockHi, 0)).toBe(BigInt(N) * BigInt(particles));
    // and they agree with the f64 moments of the particles (the rounding of one pass's f32 sum and fixed point only)
    const r = await sim.readParticles(['vx', 'vy', 'vz']);
    const vx = new Float32Array(r.vx), vy = new Float32Array(r.vy), vz = new Float32Array(r.vz);
    const ref = new Float64Array(SAMPLE_MOMENTS), mag = new Float64Array(SAMPLE_MOMENTS);
    for (let i = 0; i < particles; i++) {
      const x = vx[i], y = vy[i], z = vz[i], v2 = x * x + y * y + z * z;
      const terms = [1, x, y, z, x * x, y * y, z * z, x * y, x * z, y * z, v2 * x, v2 * y, v2 * z];
      terms.forEach((t, m) => { ref[m] += t; mag[m] += Math.abs(t); });
    }
    const unscale = momentUnscales(sim.tables);
    let f32Worst = 0;
    for (let m = 0; m < SAMPLE_MOMENTS; m++) {
      const perPass = (Number(int64(all.blockLo, all.blockHi, m)) * unscale[m]) / N;
      expect(Math.abs(perPass - ref[m]) / mag[m], `moment ${m}`).toBeLessThan(1e-6);
      // control: an f32 running sum of the same per-pass value, as the old per-submit f32 sums would have been over
      // a long window, ends far off (it stops growing once the value is below half its ulp)
      let acc = 0;
      const x = Math.fround(ref[m]);
      for (let k = 0; k < N; k++) acc = Math.fround(acc + x);
      f32Worst = Math.max(f32Worst, Math.abs(acc / N - ref[m]) / mag[m]);
    }
    expect(f32Worst).toBeGreaterThan(1e-3);
  }, 600_000);

  it('sample_close computes the block fields of fields.ts and Welford batch means, for a gas mixture', async () => {
    const c = presetCase('collide-box', [
      'grid.cells=[4,3,2]', 'sampling.start=1', 'run.steps=4',
      'species=[{"name":"Ar","mass":6.63e-26,"dRef":4.11e-10,"omega":0.81,"tRef":273.15},{"name":"He","mass":6.65e-27,"dRef":2.33e-10,"omega":0.66,"tRef":273}]',
      'initial.fractions={"Ar":0.7,"He":0.3}',
    ]);
    const sim = new Simulation(gpu, c);
    await sim.initialize();
    const t = sim.tables, S = 2, N = t.nCells, P = SAMPLE_MOMENTS * S;
    const unscale = momentUnscales(t);
    const masses = t.species.map((s) => s.mass);
    // K blocks of made-up molecules per cell and species, as exact fixed-point sums
    const K = 12, passes = 3;
    let seed = 12345;
    const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296) - 0.5;
    const hostMean = emptyFields(N), hostM2 = emptyFields(N);
    const blockFields = emptyFields(N);
    for (let k = 1; k <= K; k++) {
      const state = emptySampleState(sampleLayout(t), N);
      const sums = new Float64Array(P * N);
      for (let cell = 0; cell < N; cell++) {
        for (let s = 0; s < S; s++) {
          const speed = s === 0 ? 300 : 1000;
          const count = cell === 5 ? 0 : 20 + ((cell * 7 + s * 3 + k) % 11);
          const mom = new Float64Array(SAMPLE_MOMENTS);
          for (let i = 0; i < count; i++) {
            const x = 150 + speed * rnd(), y = -40 + speed * rnd(), z = speed * rnd(), v2 = x * x + y * y + z * z;
            [1, x, y, z, x * x, y * y, z * z, x * y, x * z, y * z, v2 * x, v2 * y, v2 * z].forEach((v, m) => { mom[m] += v; });
          }
          for (let m = 0; m < SAMPLE_MOMENTS; m++) {
            const w = (m * S + s) * N + cell;
            const fixed = BigInt(Math.round(mom[m] / unscale[m]));
            state.blockLo[w] = Number(BigInt.asUintN(32, fixed));
            state.blockHi[w] = Number(BigInt.asUintN(32, fixed >> 32n));
            sums[w] = Number(fixed) * unscale[m];
          }
        }
      }
      // the GPU: this block's sums written, then closed as the loop closes a block
      const gpuState = k === 1 ? state : { ...(await readAll(sim)), blockLo: state.blockLo, blockHi: state.blockHi };
      sim.state.sample.write(gpuState);
      const phase = samplePhase(sim);
      phase.prepareClose({ passes, block: k, massRef: masses[0], unscale: [unscale[1], unscale[4], unscale[10], 1 / t.simParams.sampleScaleE] });
      const enc = gpu.device.createCommandEncoder();
      const pass = enc.beginComputePass();
      phase.encodeClose(pass);
      pass.end();
      gpu.device.queue.submit([enc.finish()]);
      // the host: fields.ts on the same sums, and Welford in f64
      fillFields(blockFields, sums, passes, masses, N, t.fnum, cellVolume(c));
      for (const name of FIELD_NAMES) {
        for (let cell = 0; cell < N; cell++) {
          const x = blockFields[name][cell], d = x - hostMean[name][cell];
          hostMean[name][cell] += d / k;
          hostM2[name][cell] += d * (x - hostMean[name][cell]);
        }
      }
    }
    // f32 on the GPU against f64 here: within 2e-4 of the field's size (largest |mean| + block spread); the heat flux,
    // a difference of third moments with a stream (u = 150 m/s against 87 m/s thermal), loses digits to cancellation in
    // f32: within 2e-2 (M2 within 6e-2, the standard error within 3 %); the means come from the exact sums in f64 on the host
    const got: SampleState = await readAll(sim);
    const units = welfordUnits(c, t);
    FIELD_NAMES.forEach((name, f) => {
      for (let cell = 0; cell < N; cell++) {
        const u = units[name];
        const mean = u * got.welford[f * N + cell], m2 = u * u * got.welford[(sampleLayout(t).fields + f) * N + cell];
        const scale = Math.max(...Array.from({ length: N }, (_, j) => Math.abs(hostMean[name][j]) + Math.sqrt(hostM2[name][j] / K)), 1e-30);
        expect(Math.abs(mean - hostMean[name][cell]) / scale, `mean of ${name} in cell ${cell}`).toBeLessThan(name.startsWith('q') ? 2e-2 : 2e-4);
        const m2Scale = Math.max(...Array.from({ length: N }, (_, j) => hostM2[name][j]), 1e-300);
        expect(Math.abs(m2 - hostM2[name][cell]) / m2Scale, `M2 of ${name} in cell ${cell}`).toBeLessThan(name.startsWith('q') ? 6e-2 : 2e-3);
      }
    });
    // the blocks' sums went into the run's, exactly, and the block is empty again
    expect(got.blockLo.every((w) => w === 0) && got.blockHi.every((w) => w === 0)).toBe(true);
  }, 300_000);

  it('standard errors are sigma / sqrt(blocks) at equilibrium, and the live plane read from the GPU equals the run\'s fields', async () => {
    const c = presetCase('collide-box', ['grid.cells=[10,10,10]', 'particles.perCell=40', 'run.steps=400', 'sampling.start=1', 'run.stepsPerSubmit=10']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    expect(result.fieldBlocks).toBe(20);
    // the temperature's standard error against the spread of the cells' temperatures (same distribution in every cell)
    const T = result.fields.T, se = result.fieldErrors.T;
    const mean = T.reduce((a, x) => a + x, 0) / T.length;
    const sd = Math.sqrt(T.reduce((a, x) => a + (x - mean) ** 2, 0) / (T.length - 1));
    const meanSe = se.reduce((a, x) => a + x, 0) / se.length;
    // blocks of 20 steps are nearly independent at 0.07 collisions per particle per step, so the batch means see the
    // cell-to-cell spread of the run means (within 25 %: the blocks are correlated a little and 20 blocks scatter)
    expect(meanSe / sd).toBeGreaterThan(0.75);
    expect(meanSe / sd).toBeLessThan(1.25);
    // the live view's plane (z = 4), gathered on the GPU, equals the same cells of the run's fields bitwise
    const ids = Array.from({ length: 100 }, (_, k) => 400 + k);
    const live = await sim.fieldsOfCells(ids);
    const acc = sim.fieldAccumulator as FieldAccumulator;
    const whole = acc.fieldsOfCells(ids);
    for (const name of FIELD_NAMES) expect(Array.from(live[name]), name).toEqual(Array.from(whole[name]));
    expect(Array.from(whole.n)).toEqual(ids.map((i) => result.fields.n[i]));
  }, 300_000);

  it('the end of a run reads its sampling state into prefaulted shared memory and evaluates the fields there: bitwise those of fresh arrays', async () => {
    const c = presetCase('collide-box', ['grid.cells=[6,5,4]', 'particles.perCell=30', 'run.steps=40', 'sampling.start=1', 'run.stepsPerSubmit=10']);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    // the one-rank loop read into its arena: the accumulator's state lies in shared memory
    const acc = sim.fieldAccumulator as FieldAccumulator;
    expect(acc.state.runLo.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(result.fields.T.buffer).toBeInstanceOf(SharedArrayBuffer);
    // a fresh read and a fresh evaluation give the same bits
    const fresh = new FieldAccumulator(c, sim.tables);
    fresh.state = await sim.readSampleState();
    fresh.counters = { ...result.sampleCounters };
    expect(fresh.state.runLo.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(fieldsSha256(fresh.fields())).toBe(fieldsSha256(result.fields));
    expect(fieldsSha256(fresh.errors())).toBe(fieldsSha256(result.fieldErrors));
    // a read into given arrays of the wrong size falls back to fresh ones
    const wrong = emptySampleState(sampleLayout(sim.tables), 3);
    expect((await sim.readSampleState(wrong)).runLo).not.toBe(wrong.runLo);
    const right = emptySampleState(sampleLayout(sim.tables), sim.tables.nCells);
    const into = await sim.readSampleState(right);
    expect(into.runLo).toBe(right.runLo);
    expect(Array.from(into.welford)).toEqual(Array.from(fresh.state.welford));
  }, 300_000);

  it('batch-means blocks close inside long submits exactly as at the ends of short ones: fields and errors bitwise equal', async () => {
    // a run's batch-means units (submit-plan.ts blockUnitSteps) do not depend on its submit size: 400 steps sampled
    // from step 1 make units of 20 steps, 20 blocks; 200 steps from step 71, units of 6 steps, two to a block, 12
    // blocks; 100 steps from step 81, units of one step, a block each, 20 blocks (several closes between two of the
    // loop's flushes). The reference submits hold one unit, so every block closes at a submit's end (as when units
    // were submits); 50 and 100 steps per submit close them inside submits and split units across submits. The
    // sampling pass in every run (the same bits as the walk, no trials).
    const runOf = async (perSubmit: number, steps: number, sampleStart: number) => {
      const c = presetCase('collide-box', ['grid.cells=[6,6,6]', 'particles.perCell=30', `run.steps=${steps}`, `sampling.start=${sampleStart}`, `run.stepsPerSubmit=${perSubmit}`]);
      const { result } = await simulate(gpu, c, { timing: 'off' });
      return result;
    };
    const previous = process.env.DSMC_SAMPLE_KERNEL;
    process.env.DSMC_SAMPLE_KERNEL = 'pass';
    try {
      for (const { steps, start, unit, blocks } of [{ steps: 400, start: 1, unit: 20, blocks: 20 }, { steps: 200, start: 71, unit: 6, blocks: 12 }, { steps: 100, start: 81, unit: 1, blocks: 20 }]) {
        const reference = await runOf(unit, steps, start);
        expect(reference.fieldBlocks, `sampled from step ${start}`).toBe(blocks);
        for (const perSubmit of [50, 100]) {
          const result = await runOf(perSubmit, steps, start);
          expect(result.fieldBlocks, `${perSubmit} steps per submit`).toBe(reference.fieldBlocks);
          expect(result.samples).toBe(reference.samples);
          for (const name of FIELD_NAMES) {
            expect(Array.from(result.fields[name]), `${name}, ${perSubmit} steps per submit, from step ${start}`).toEqual(Array.from(reference.fields[name]));
            expect(Array.from(result.fieldErrors[name]), `error of ${name}, ${perSubmit} steps per submit, from step ${start}`).toEqual(Array.from(reference.fieldErrors[name]));
          }
        }
      }
    } finally {
      if (previous === undefined) delete process.env.DSMC_SAMPLE_KERNEL;
      else process.env.DSMC_SAMPLE_KERNEL = previous;
    }
  }, 300_000);

  it('the sampling pass, the collide kernel walking its cells and the measured choice between them give the same bits, for one gas, a mixture, vibrating and rotating molecules', async () => {
    const mixture = [
      'species=[{"name":"Ar","mass":6.63e-26,"dRef":4.11e-10,"omega":0.81,"tRef":273.15},{"name":"He","mass":6.65e-27,"dRef":2.33e-10,"omega":0.66,"tRef":273}]',
      'initial.fractions={"Ar":0.7,"He":0.3}',
    ];
    // molecules (vibrating N2, Zvib 5, with argon, hot): the internal energies' moments 13 and 14 sampled by both kernels
    const molecular = [
      'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}},{"use":"Ar"}]',
      'initial.fractions={"N2":0.6,"Ar":0.4}', 'initial.temperature=2500',
    ];
    // rotation only (one internal word per particle: the pass reads four particles' energies a vec4)
    const rotating = ['species=[{"use":"N2","vibration":null}]', 'initial.temperature=1000'];
    for (const extra of [[], mixture, molecular, rotating]) {
      // cells starting at every offset of a vec4, odd and even counts per cell, several blocks
      const c = presetCase('collide-box', ['grid.cells=[8,8,8]', 'particles.perCell=20', 'sampling.start=3', 'run.steps=40', 'run.stepsPerSubmit=9', ...extra]);
      const run = async (kernel: 'walk' | 'pass' | 'auto') => {
        const before = process.env.DSMC_SAMPLE_KERNEL;
        process.env.DSMC_SAMPLE_KERNEL = kernel;
        try {
          const { sim, result } = await simulate(gpu, c);
          const state = await readAll(sim);
          return { result, state, phases: [...result.phases.keys()] };
        } finally {
          if (before === undefined) delete process.env.DSMC_SAMPLE_KERNEL; else process.env.DSMC_SAMPLE_KERNEL = before;
        }
      };
      const alone = await run('pass');
      expect(alone.phases).toContain('sample');
      expect(alone.result.samples).toBe(38);
      // every particle of every sampled pass counted
      const counted = Number(int64(alone.state.runLo, alone.state.runHi, 0) + int64(alone.state.blockLo, alone.state.blockHi, 0));
      expect(counted).toBeGreaterThan(0);
      expect(alone.result.sampleKernel).toEqual({ kernel: 'pass', how: 'fixed' });
      if (extra === molecular) {
        // 15 moments of 2 species in 512 cells, and vibrational energy sampled (moment 14 of N2 is not zero)
        expect(alone.state.runLo.length).toBe(15 * 2 * 512);
        const plane = (14 * 2 + 0) * 512;
        const st = alone.state;
        const vib = Array.from({ length: 512 }, (_, k) => plane + k).filter((w) => (st.runLo[w] | st.runHi[w] | st.blockLo[w] | st.blockHi[w]) !== 0);
        expect(vib.length).toBeGreaterThan(0);
      }
      for (const kernel of ['walk', 'auto'] as const) {
        const other = await run(kernel);
        expect(other.phases, kernel).toContain('collide+sample');
        if (kernel === 'walk') {
          expect(other.phases).not.toContain('sample');
        } else {
          // two trial submits each, then the cheaper: both measured
          expect(other.phases).toContain('sample');
          expect(other.result.sampleKernel?.how).toBe('measured');
          expect(other.result.sampleKernel?.passSeconds).toBeGreaterThan(0);
          expect(Number.isFinite(other.result.sampleKernel?.walkExtraSeconds)).toBe(true);
        }
        for (const part of ['runLo', 'runHi', 'blockLo', 'blockHi', 'welford'] as const) {
          expect(Buffer.from(other.state[part].buffer).equals(Buffer.from(alone.state[part].buffer)), `${kernel} ${part}`).toBe(true);
        }
      }
    }
  }, 300_000);
});
