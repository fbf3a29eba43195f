// The counter-based RNG of common.wgsl (Philox-4x32-10, u01, rand4), run on the GPU through the
// probe kernels of shaders/probes/rng.wgsl: known answers, a TypeScript reference, uniformity, streams.
import kstest from '@stdlib/stats-kstest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindBuffers } from '../../src-main/solver/gpu/bind.js';
import { WORKGROUP_SIZE, dispatchDims, makeBufferWith } from '../../src-main/solver/gpu/buffers.js';
import { PipelineCache } from '../../src-main/solver/gpu/pipeline-cache.js';
import { SimParams } from '../../src-main/solver/gpu/struct-layouts.js';
import { expectNoGpuErrors, mulberry32, openGpu, readU32, runPass, storageWith, type Gpu } from './gpu-helpers.js';
import { philox4x32Reference, u01Reference } from './philox-reference.js';

const SEED = [0x1234abcd, 0x5eed];
let gpu: Gpu;
let cache: PipelineCache;

beforeAll(async () => {
  gpu = await openGpu();
  cache = new PipelineCache(gpu.device, { WG_SIZE: WORKGROUP_SIZE });
});
afterAll(() => gpu?.device.destroy());

// Runs probe entry `entry` over n invocations with the given bindings; returns `outWords` words of binding 3.
async function probe(entry: string, n: number, bindings: Record<number, GPUBuffer>, outWords: number): Promise<Uint32Array> {
  const device = gpu.device;
  const pipeline = cache.get({ file: 'probes/rng.wgsl', entry });
  const out = device.createBuffer({ label: `probe-${entry}-out`, size: 4 * outWords, usage: 0x80 | 0x04 });
  const group = bindBuffers(device, pipeline, `probe-${entry}`, { ...bindings, 3: out });
  runPass(device, `probe-${entry}`, (pass) => {
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(...dispatchDims(n, WORKGROUP_SIZE));
  });
  const words = await readU32(device, out, outWords);
  out.destroy();
  await expectNoGpuErrors(gpu);
  return words;
}

// Philox-4x32-10 on the GPU for items of six words each (counter x4, key x2).
async function gpuPhilox(items: Uint32Array): Promise<Uint32Array> {
  const input = storageWith(gpu.device, 'probe-items', items);
  const out = await probe('philox_words', items.length / 6, { 2: input }, (4 * items.length) / 6);
  input.destroy();
  return out;
}

// rand4(id, step, stream, n) for id in [0, count) under seed, as f32 values (4 per id).
async function gpuRand4(count: number, step: number, stream: number, n: number, seed = SEED): Promise<Float32Array> {
  const device = gpu.device;
  const params = makeBufferWith(device, 'probe-params', SimParams.pack({ seedLo: seed[0], seedHi: seed[1] }), 0x40);
  const ctl = storageWith(device, 'probe-ctl', new Uint32Array([count, step, stream, n]));
  const words = await probe('rand4_draws', count, { 0: params, 1: ctl }, 4 * count);
  params.destroy();
  ctl.destroy();
  return new Float32Array(words.buffer);
}

// Two-sided KS statistic of a sample against U(0, 1).
function ksStatistic(x: Float64Array): number {
  const s = Float64Array.from(x).sort();
  let d = 0;
  for (let i = 0; i < s.length; i++) d = Math.max(d, (i + 1) / s.length - s[i], s[i] - i / s.length);
  return d;
}

// Asymptotic p-value of the KS statistic d for n samples (Kolmogorov series, Stephens' correction).
function kolmogorovPValue(d: number, n: number): number {
  const l = (Math.sqrt(n) + 0.12 + 0.11 / Math.sqrt(n)) * d;
  let p = 0;
  for (let k = 1; k <= 100; k++) p += 2 * (-1) ** (k - 1) * Math.exp(-2 * k * k * l * l);
  return Math.min(1, Math.max(0, p));
}

// Hex words of a GPU result, for readable known-answer failures.
const hex = (w: ArrayLike<number>) => Array.from(w, (x) => (x >>> 0).toString(16).padStart(8, '0')).join(' ');

describe('philox4x32 (common.wgsl)', () => {
  it('matches the Random123 known-answer vectors for philox4x32_10', async () => {
    const kat = [
      { ctr: [0, 0, 0, 0], key: [0, 0], out: '6627e8d5 e169c58d bc57ac4c 9b00dbd8' },
      { ctr: [0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff], key: [0xffffffff, 0xffffffff], out: '408f276d 41c83b0e a20bc7c6 6d5451fd' },
      { ctr: [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], key: [0xa4093822, 0x299f31d0], out: 'd16cfe09 94fdcceb 5001e420 24126ea1' },
    ];
    const words = await gpuPhilox(new Uint32Array(kat.flatMap((k) => [...k.ctr, ...k.key])));
    kat.forEach((k, i) => {
      expect(hex(words.subarray(4 * i, 4 * i + 4))).toBe(k.out);
      expect(hex(philox4x32Reference(k.ctr, k.key))).toBe(k.out); // the TS reference too
    });
  });

  it('equals the TypeScript reference bit for bit on 1e5 random counters and keys', async () => {
    const n = 100_000;
    const rnd = mulberry32(42);
    const items = new Uint32Array(6 * n).map(() => rnd());
    const words = await gpuPhilox(items);
    let mismatches = 0;
    for (let i = 0; i < n; i++) {
      const ref = philox4x32Reference(Array.from(items.subarray(6 * i, 6 * i + 4)), Array.from(items.subarray(6 * i + 4, 6 * i + 6)));
      for (let k = 0; k < 4; k++) if (ref[k] !== words[4 * i + k]) mismatches++;
    }
    expect(mismatches).toBe(0);
  });
});

describe('u01 and rand4 (common.wgsl)', () => {
  it('u01 maps every word strictly inside (0, 1), monotonically', async () => {
    const edges = new Uint32Array([0, 0xff, 0x100, 0x7fffffff, 0x80000000, 0xfffffe00, 0xfffffeff, 0xffffff00, 0xffffffff]);
    const input = storageWith(gpu.device, 'probe-u01', edges);
    const u = new Float32Array((await probe('u01_words', edges.length, { 2: input }, edges.length)).buffer);
    input.destroy();
    for (let i = 0; i < u.length; i++) {
      expect(u[i], `u01(0x${edges[i].toString(16)})`).toBeGreaterThan(0);
      expect(u[i], `u01(0x${edges[i].toString(16)})`).toBeLessThan(1);
      if (i > 0) expect(u[i]).toBeGreaterThanOrEqual(u[i - 1]);
    }
  });

  it('rand4(id, step, stream, n) is u01 of philox((id, step, stream, n), (seedLo, seedHi))', async () => {
    const count = 4096;
    const u = await gpuRand4(count, 17, 3, 5);
    for (let id = 0; id < count; id++) {
      const w = philox4x32Reference([id, 17, 3, 5], SEED);
      for (let k = 0; k < 4; k++) expect(u[4 * id + k]).toBe(u01Reference(w[k]));
    }
  });

  it('1e6 draws are uniform: KS p > 0.01, mean and variance within 5 sigma, 2D chi-square, no serial correlation', async () => {
    const u = Float64Array.from(await gpuRand4(250_000, 1, 3, 0));
    const N = u.length;
    // stdlib's exact p-value takes minutes at n = 1e6: the whole sample against the asymptotic law,
    // and stdlib's KS on 100 chunks of 1e3 whose p-values are tested for uniformity in turn
    expect(kolmogorovPValue(ksStatistic(u), N)).toBeGreaterThan(0.01);
    const chunkP: number[] = [];
    for (let c = 0; c < 100; c++) {
      const chunk = u.subarray(c * 1000, (c + 1) * 1000);
      const ks = kstest(chunk, 'uniform', 0, 1);
      expect(Math.abs(ks.pValue - kolmogorovPValue(ksStatistic(chunk), chunk.length))).toBeLessThan(0.02);
      chunkP.push(ks.pValue);
    }
    expect(kstest(chunkP, 'uniform', 0, 1).pValue).toBeGreaterThan(0.01);

    let mean = 0;
    for (const x of u) mean += x;
    mean /= N;
    let variance = 0;
    for (const x of u) variance += (x - mean) ** 2;
    variance /= N - 1;
    expect(Math.abs(mean - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / N));
    // Var(s^2) = (mu4 - sigma^4)/N = (1/80 - 1/144)/N = 1/(180 N)
    expect(Math.abs(variance - 1 / 12)).toBeLessThan(5 * Math.sqrt(1 / (180 * N)));

    // chi-square of consecutive pairs (x_2k, x_2k+1) in 100 x 100 bins: dof 9999, sd sqrt(2 dof)
    const bins = new Float64Array(100 * 100);
    for (let k = 0; k + 1 < N; k += 2) bins[Math.floor(u[k] * 100) * 100 + Math.floor(u[k + 1] * 100)]++;
    const expected = N / 2 / bins.length;
    let chi2 = 0;
    for (const b of bins) chi2 += (b - expected) ** 2 / expected;
    const dof = bins.length - 1;
    expect(Math.abs(chi2 - dof) / Math.sqrt(2 * dof)).toBeLessThan(5);

    // serial correlation at lags 1..4 (lag 4 is the same word of the next id): |r| < 5/sqrt(N)
    for (let lag = 1; lag <= 4; lag++) {
      let c = 0;
      for (let k = 0; k + lag < N; k++) c += (u[k] - mean) * (u[k + lag] - mean);
      const r = c / (N - lag) / variance;
      expect(Math.abs(r), `lag ${lag}`).toBeLessThan(5 / Math.sqrt(N));
    }
  });

  it('different stream tags, steps, draw indices, ids and seeds give different numbers', async () => {
    const count = 100_000;
    const runs: [string, Promise<Float32Array>][] = [];
    for (let stream = 1; stream <= 5; stream++) runs.push([`stream ${stream}`, gpuRand4(count, 7, stream, 0)]);
    runs.push(['step 8', gpuRand4(count, 8, 3, 0)]);
    runs.push(['n 1', gpuRand4(count, 7, 3, 1)]);
    runs.push(['other seed', gpuRand4(count, 7, 3, 0, [SEED[0] + 1, SEED[1]])]);
    const seen = new Map<string, string>();
    let repeats = 0;
    for (const [name, p] of runs) {
      const words = new Uint32Array((await p).buffer);
      for (let id = 0; id < count; id++) {
        const key = `${words[4 * id]},${words[4 * id + 1]},${words[4 * id + 2]},${words[4 * id + 3]}`;
        if (seen.has(key)) repeats++;
        else seen.set(key, name);
      }
    }
    expect(repeats).toBe(0);
  });
});
