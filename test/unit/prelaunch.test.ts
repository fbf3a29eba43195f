// Pre-launch check: estimates match physics.ts, each warning and error fires on a case built for it,
// and the presets pass clean.
import { describe, expect, it } from 'vitest';
import { prelaunchCheck, formatPrelaunch } from '../../src-main/cases/prelaunch.js';
import type { PrelaunchGpu } from '../../src-main/cases/prelaunch.js';
import { parseCase } from '../../src-main/common/case-schema.js';
import type { Case } from '../../src-main/common/case-schema.js';
import { BOLTZMANN, collisionRate, meanFreePath, mostProbableSpeed } from '../../src-main/common/physics.js';
import { baseCase, preset, presets } from './case-fixtures.js';
import { stepsPerSubmit } from '../../src-main/solver/submit-plan.js';
import { bufferPlan, initialCapacity } from '../../src-main/solver/state.js';
import { buildTables } from '../../src-main/solver/tables.js';

const NVIDIA = { maxStorageBufferBindingSize: 2 ** 31 - 4, maxBufferSize: 2 ** 31 };
const LAVAPIPE = { maxStorageBufferBindingSize: 2 ** 27, maxBufferSize: 2 ** 31 };

// A plausible buffer list: 32 bytes per particle for twice the largest expected count, 64 bytes per cell.
function gpuFor(c: Case, limits = NVIDIA, extra: Partial<PrelaunchGpu> = {}): PrelaunchGpu {
  const first = prelaunchCheck(c, { limits, buffers: [] }).estimates;
  const capacity = Math.ceil(2 * Math.max(first.particles, first.referenceParticles));
  const cells = c.grid.cells[0] * c.grid.cells[1] * c.grid.cells[2];
  return { limits, buffers: [{ label: 'particles', bytes: 32 * capacity }, { label: 'cells', bytes: 64 * cells }], ...extra };
}

// Parses the base case after `edit`.
function caseWith(edit: (c: any) => void, json: any = baseCase()): Case {
  edit(json);
  return parseCase(json);
}

// Codes of the warnings a case gets on a roomy GPU.
function warningCodes(c: Case): string[] {
  return prelaunchCheck(c, gpuFor(c)).warnings.map((w) => w.code);
}

const arVss = { mass: 6.63e-26, dRef: 4.11e-10, omega: 0.81, tRef: 273.15, alpha: 1.4 };

/** Presets made for big GPUs (the multi-GPU scaling problem): checked with the solver's own buffers on an 80 GiB GPU. */
const BIG_GPU_PRESETS = new Set(['scaling-box.json', 'hypersonic-wedge.json', 'supersonic-block.json', 'mach-reflection.json']);

/**
 * Warnings a preset shows by design: reacting-air starts at 20,000 K, where the TCE model cannot carry the air5 rates
 * of some reactions at full rate (docs/CHEMISTRY.md), which the check says.
 */
const PRESET_WARNINGS: Record<string, string[]> = { 'reacting-air.json': ['reaction-rates-out-of-reach'] };

describe('presets', () => {
  it.each(presets().filter(([f]) => !BIG_GPU_PRESETS.has(f)))('%s passes with no errors and no warnings but its own, on NVIDIA and lavapipe limits', (f, json) => {
    const c = parseCase(json);
    for (const limits of [NVIDIA, LAVAPIPE]) {
      const r = prelaunchCheck(c, gpuFor(c, limits, { deviceMemoryBytes: 2 ** 30 }));
      expect(r.errors).toEqual([]);
      expect(r.warnings.map((w) => w.code)).toEqual(PRESET_WARNINGS[f] ?? []);
      expect(r.ok).toBe(true);
    }
  });

  it('the base test case also passes clean', () => {
    expect(warningCodes(parseCase(baseCase()))).toEqual([]);
  });
});

describe('estimates', () => {
  it('collide-box matches physics.ts and the SPARTA numbers', () => {
    const c = parseCase(preset('collide-box.json'));
    const gpu = gpuFor(c);
    const e = prelaunchCheck(c, gpu).estimates;
    const n = 7.07043e22;
    expect(e.fnum).toBeCloseTo((n * 1e-15) / 10, 3);
    expect(e.particles).toBeCloseTo(80000, 6);
    expect(e.referenceParticles).toBeCloseTo(80000, 6);
    expect(e.particlesPerCell).toBeCloseTo(10, 10);
    expect(e.meanFreePath).toBeCloseTo(meanFreePath(arVss, n, 273.15), 15);
    expect(e.meanFreePath).toBeCloseTo(1.8845e-5, 8);
    expect(e.meanCollisionTime).toBeCloseTo(1 / collisionRate(arVss, n, 273.15), 17);
    expect(e.cellResidenceTime).toBeCloseTo(1e-5 / mostProbableSpeed(273.15, 6.63e-26), 17);
    // PHYSICS.md: collision events per particle per step nu*dt/2 = 0.0707 in theory.
    expect((c.run.dt / e.meanCollisionTime) / 2).toBeCloseTo(0.0707, 4);
    const total = 32 * 160000 + 64 * 8000;
    expect(e.totalBufferBytes).toBe(total);
    expect(e.bytesPerParticle).toBeCloseTo(total / 80000, 10);
  });

  it('free-stream starts empty, uses the inflow as reference and counts the flow speed', () => {
    const c = parseCase(preset('free-stream.json'));
    const e = prelaunchCheck(c, gpuFor(c)).estimates;
    expect(e.particles).toBe(0);
    expect(e.referenceParticles).toBeCloseTo(50 * 4 * 4 * 20, 6);
    expect(e.cellResidenceTime).toBeCloseTo(4e-3 / (mostProbableSpeed(300, 6.63e-26) + 1060.4), 15);
    expect(1060.4 / mostProbableSpeed(300, 6.63e-26)).toBeCloseTo(3, 2);
  });

  it('a mixture follows Bird eqs. 4.76-4.77 and reduces to one species when the species are equal', () => {
    const ar = { name: 'A', mass: 6.63e-26, dRef: 4.17e-10, omega: 0.81, tRef: 273 };
    const twin = parseCase({ ...baseCase(), species: [ar, { ...ar, name: 'B' }] });
    const single = parseCase(baseCase());
    const et = prelaunchCheck(twin, gpuFor(twin)).estimates;
    const es = prelaunchCheck(single, gpuFor(single)).estimates;
    expect(et.meanFreePath / es.meanFreePath).toBeCloseTo(1, 12);
    expect(et.meanCollisionTime / es.meanCollisionTime).toBeCloseTo(1, 12);

    // Argon with helium, 30/70, checked against the formulas written out here.
    const he = { name: 'He', mass: 6.65e-27, dRef: 2.33e-10, omega: 0.66, tRef: 273 };
    const mix = parseCase({ ...baseCase(), species: [{ ...ar, name: 'Ar' }, he], initial: { numberDensity: 1e21, temperature: 300, fractions: { Ar: 3, He: 7 } } });
    const sp = mix.species;
    const x = [0.3, 0.7];
    const n = 1e21;
    const T = 300;
    let lam = 0;
    let nu = 0;
    for (let p = 0; p < 2; p++) {
      let inv = 0;
      let rate = 0;
      for (let q = 0; q < 2; q++) {
        const d = (sp[p].dRef + sp[q].dRef) / 2;
        const w = (sp[p].omega + sp[q].omega) / 2;
        const tr = (sp[p].tRef + sp[q].tRef) / 2;
        const mr = (sp[p].mass * sp[q].mass) / (sp[p].mass + sp[q].mass);
        inv += Math.PI * d * d * x[q] * n * Math.pow(tr / T, w - 0.5) * Math.sqrt(1 + sp[p].mass / sp[q].mass);
        rate += 2 * Math.sqrt(Math.PI) * d * d * x[q] * n * Math.pow(T / tr, 1 - w) * Math.sqrt((2 * BOLTZMANN * tr) / mr);
      }
      lam += x[p] / inv;
      nu += x[p] * rate;
    }
    const em = prelaunchCheck(mix, gpuFor(mix)).estimates;
    expect(em.meanFreePath / lam).toBeCloseTo(1, 12);
    expect(em.meanCollisionTime * nu).toBeCloseTo(1, 12);
    // Helium is the fastest species, so it sets c_mp for the residence time.
    expect(em.cellResidenceTime).toBeCloseTo(1e-3 / mostProbableSpeed(300, 6.65e-27), 15);
  });
});

describe('warnings', () => {
  it('cell-size: cells wider than the mean free path, naming lambda and lambda/3', () => {
    const c = caseWith((j) => { j.grid.cellSize = [5e-3, 1e-3, 1e-3]; j.run.dt = 1e-8; });
    const w = prelaunchCheck(c, gpuFor(c)).warnings.find((f) => f.code === 'cell-size')!;
    const lam = meanFreePath({ ...c.species[0] }, 1e21, 273.15);
    expect(w.field).toBe('grid.cellSize');
    expect(w.message).toContain(`largest cell size 0.005 m`);
    expect(w.message).toContain(`lambda = ${Number(lam.toPrecision(3))} m`);
    expect(w.message).toContain('lambda/3');
    expect(warningCodes(caseWith((j) => { j.grid.cellSize = [1.2e-3, 1e-3, 1e-3]; }))).not.toContain('cell-size');
  });

  it('cell-size ignores a single periodic cell (homogeneous axis) but not a walled one', () => {
    const thickZ = (type: string) => caseWith((j) => {
      j.grid = { cells: [4, 4, 1], cellSize: [1e-3, 1e-3, 1] };
      j.boundaries.zmin = { type };
      j.boundaries.zmax = { type };
    });
    expect(warningCodes(thickZ('periodic'))).toEqual([]);
    expect(warningCodes(thickZ('specular'))).toContain('cell-size');
  });

  it('dt-residence: dt above t_res/4 but below the collision time', () => {
    const c = caseWith((j) => { j.run.dt = 2e-8; }, preset('collide-box.json'));
    const r = prelaunchCheck(c, gpuFor(c));
    expect(r.warnings.map((w) => w.code)).toEqual(['dt-residence']);
    expect(r.warnings[0].field).toBe('run.dt');
    expect(r.warnings[0].message).toMatch(/run\.dt = 2e-8 s .* t_res\/4 = 7\.41e-9 s/);
    expect(r.ok).toBe(true);
  });

  it('dt-residence counts moving walls in the flow speed', () => {
    const fast = caseWith((j) => { j.boundaries.ymax.velocity = [2000, 0, 0]; j.boundaries.ymin.velocity = [-2000, 0, 0]; }, preset('couette.json'));
    const w = prelaunchCheck(fast, gpuFor(fast)).warnings.find((f) => f.code === 'dt-residence')!;
    expect(w.message).toContain('flow speed 2000 m/s');
  });

  it('dt-collision: dt above the mean collision time', () => {
    const c = caseWith((j) => { j.run.dt = 1e-7; }, preset('collide-box.json'));
    const codes = warningCodes(c);
    expect(codes).toContain('dt-collision');
    const w = prelaunchCheck(c, gpuFor(c)).warnings.find((f) => f.code === 'dt-collision')!;
    expect(w.message).toContain('mean collision time 1/nu = 4.95e-8 s');
    expect(warningCodes(caseWith((j) => { j.run.dt = 7e-9; }, preset('collide-box.json')))).not.toContain('dt-collision');
  });

  it('particles-per-cell: fewer than 10 per cell, from perCell or from fnum', () => {
    expect(warningCodes(caseWith((j) => { j.particles = { perCell: 5 }; }))).toEqual(['particles-per-cell']);
    expect(warningCodes(caseWith((j) => { j.particles = { perCell: 10 }; }))).toEqual([]);
    // fnum giving 1e21 * 1e-9 / 1e12 = 1 particle per cell.
    const c = caseWith((j) => { j.particles = { fnum: 1e12 }; });
    const r = prelaunchCheck(c, gpuFor(c));
    expect(r.estimates.particlesPerCell).toBeCloseTo(1, 10);
    expect(r.warnings[0].message).toContain('about 1 simulated particles per cell');
  });

  it('no-gas: an empty box without inflow', () => {
    const c = caseWith((j) => { j.initial = { kind: 'empty' }; j.particles = { fnum: 1e10 }; });
    const r = prelaunchCheck(c, gpuFor(c));
    expect(r.warnings.map((w) => w.code)).toEqual(['no-gas']);
    expect(r.estimates.particles).toBe(0);
    expect(r.estimates.meanFreePath).toBe(Infinity);
  });

  it('sampling-after-end: sampling starts after the last step', () => {
    expect(warningCodes(caseWith((j) => { j.sampling = { start: 11 }; }))).toEqual(['sampling-after-end']);
    expect(warningCodes(caseWith((j) => { j.sampling = { start: 10 }; }))).toEqual([]);
  });
});

describe('thresholds', () => {
  // The collide-box case with one field scaled to just above or just below a limit.
  const box = (edit: (j: any) => void) => caseWith(edit, preset('collide-box.json'));
  const e = prelaunchCheck(box(() => {}), { limits: NVIDIA, buffers: [] }).estimates;

  it('dt-residence switches on at exactly t_res/4', () => {
    expect(warningCodes(box((j) => { j.run.dt = 1.01 * e.cellResidenceTime / 4; }))).toEqual(['dt-residence']);
    expect(warningCodes(box((j) => { j.run.dt = 0.99 * e.cellResidenceTime / 4; }))).toEqual([]);
  });

  it('dt-collision switches on at exactly the mean collision time', () => {
    const at = (f: number) => warningCodes(box((j) => { j.run.dt = f * e.meanCollisionTime; }));
    expect(at(1.01)).toContain('dt-collision');
    expect(at(0.99)).not.toContain('dt-collision');
  });

  it('cell-size switches on at exactly one mean free path', () => {
    // Scale dt with the cell so that only the cell-size rule can change.
    const at = (f: number) => warningCodes(box((j) => {
      const dx = f * e.meanFreePath;
      j.grid.cellSize = [dx, dx, dx];
      j.run.dt = 1e-10;
    }));
    expect(at(1.01)).toEqual(['cell-size']);
    expect(at(0.99)).toEqual([]);
  });
});

describe('errors', () => {
  const c = parseCase(baseCase());

  it('buffer-binding: a buffer over maxStorageBufferBindingSize refuses the launch', () => {
    const limit = LAVAPIPE.maxStorageBufferBindingSize;
    const r = prelaunchCheck(c, { limits: LAVAPIPE, buffers: [{ label: 'particle velocities', bytes: limit + 4 }] });
    expect(r.ok).toBe(false);
    expect(r.errors).toHaveLength(1);
    const e = r.errors[0];
    expect(e.code).toBe('buffer-binding');
    expect(e.field).toBe('buffers.particle velocities');
    expect(e.message).toContain('buffer "particle velocities" needs 128.00 MiB (134217732 bytes)');
    expect(e.message).toContain('at most 128.00 MiB (134217728 bytes) per buffer (maxStorageBufferBindingSize)');
    expect(e.message).toContain('fewer particles');
    expect(e.message).toContain('larger limits');
    expect(prelaunchCheck(c, { limits: LAVAPIPE, buffers: [{ label: 'p', bytes: limit }] }).ok).toBe(true);
  });

  it('buffer-size: a buffer over maxBufferSize', () => {
    const limits = { maxStorageBufferBindingSize: 2 ** 40, maxBufferSize: 2 ** 28 };
    const r = prelaunchCheck(c, { limits, buffers: [{ label: 'cells', bytes: 2 ** 29 }, { label: 'small', bytes: 16 }] });
    expect(r.errors.map((e) => [e.code, e.field])).toEqual([['buffer-size', 'buffers.cells']]);
    expect(r.errors[0].message).toContain('(maxBufferSize)');
  });

  it('device-memory: the total over the device memory, only when it is known', () => {
    const buffers = [{ label: 'a', bytes: 600 }, { label: 'b', bytes: 500 }];
    const r = prelaunchCheck(c, { limits: NVIDIA, buffers, deviceMemoryBytes: 1000 });
    expect(r.errors.map((e) => e.code)).toEqual(['device-memory']);
    expect(r.errors[0].message).toContain('need 1.07 KiB (1100 bytes) in all but the device has 1000 bytes');
    expect(prelaunchCheck(c, { limits: NVIDIA, buffers }).ok).toBe(true);
    expect(prelaunchCheck(c, { limits: NVIDIA, buffers, deviceMemoryBytes: 1100 }).ok).toBe(true);
  });
});

describe('formatPrelaunch', () => {
  it('prints the verdict, the estimates with units and one line per finding', () => {
    const ok = parseCase(preset('collide-box.json'));
    const text = formatPrelaunch(prelaunchCheck(ok, gpuFor(ok)));
    expect(text).toContain('Pre-launch check: OK (0 error(s), 0 warning(s))');
    expect(text).toMatch(/mean free path\s+1\.88e-5 m/);
    expect(text).toMatch(/initial particles\s+80000/);

    const bad = caseWith((j) => { j.run.dt = 1e-7; }, preset('collide-box.json'));
    const r = prelaunchCheck(bad, { limits: LAVAPIPE, buffers: [{ label: 'big', bytes: 2 ** 30 }] });
    const lines = formatPrelaunch(r).split('\n');
    expect(lines[0]).toBe('Pre-launch check: REFUSED (1 error(s), 2 warning(s))');
    expect(lines.filter((l) => l.startsWith('ERROR [buffer-binding] buffers.big:'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('warning [dt-'))).toHaveLength(2);
  });
});

describe('cell index range', () => {
  it('refuses a grid whose cell index does not fit 27 bits', () => {
    // the case rules refuse this grid already; the pre-launch check must too, for cases built in code
    const c: Case = { ...parseCase(preset('collide-box.json')), grid: { cells: [1000, 1000, 200], cellSize: [1e-5, 1e-5, 1e-5] } };
    const r = prelaunchCheck(c, { limits: { maxStorageBufferBindingSize: 2 ** 40, maxBufferSize: 2 ** 40 }, buffers: [] });
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => e.code)).toContain('too-many-cells');
  });
});

describe('big-GPU presets', () => {
  it.each([...BIG_GPU_PRESETS])('%s fits one 80 GiB NVIDIA GPU with the solver\'s own buffer plan', (file) => {
    const c = parseCase(preset(file));
    const tables = buildTables(c);
    const buffers = bufferPlan(tables, initialCapacity(tables, stepsPerSubmit(c)));
    const r = prelaunchCheck(c, { limits: NVIDIA, buffers, deviceMemoryBytes: 80 * 2 ** 30 });
    expect(r.errors).toEqual([]);
    expect(r.ok).toBe(true);
  });
});
