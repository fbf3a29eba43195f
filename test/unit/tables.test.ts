// buildTables (src-main/solver/tables.ts) on the presets and on a two-species case with two inflow
// faces: collision factor, pair constants, VSS flags, face tables, inflow rates and the initial fill.
import { describe, expect, it } from 'vitest';
import { parseCase } from '../../src-main/common/case-schema.js';
import { BOLTZMANN, maxwellianFlux, pairModel } from '../../src-main/common/physics.js';
import { BOUNDARY_CODES } from '../../src-main/solver/gpu/struct-layouts.js';
import { buildTables } from '../../src-main/solver/tables.js';
import { preset, presets } from './case-fixtures.js';

const FACE_NAMES = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'];

// Expects a to equal b to relative precision rel.
function close(a: number, b: number, what: string, rel = 1e-12): void {
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.abs(b));
}

// Reference density of a case JSON (initial gas unless empty, or the densest inflow), from the raw JSON.
function referenceDensity(json: any): number {
  let n = json.initial.kind === 'empty' ? 0 : json.initial.numberDensity;
  for (const f of FACE_NAMES) if (json.boundaries[f].type === 'inflow') n = Math.max(n, json.boundaries[f].numberDensity);
  return n;
}

describe('buildTables on the presets', () => {
  for (const [file, json] of presets()) {
    it(`${file}: collision factor, pairs, initial fill and face kinds`, () => {
      const t = buildTables(parseCase(json));
      const [nx, ny, nz] = json.grid.cells;
      const [dx, dy, dz] = json.grid.cellSize;
      const V = dx * dy * dz;
      const fnum = json.particles.fnum ?? (referenceDensity(json) * V) / json.particles.perCell;
      close(t.fnum, fnum, 'fnum');
      expect(t.nCells).toBe(nx * ny * nz);
      close(t.simParams.collisionFactor, (0.5 * fnum * json.run.dt) / V, 'collisionFactor');
      const filled = json.initial.kind !== 'empty';
      expect(t.initialParticles).toBe(filled ? Math.round((json.initial.numberDensity * V * nx * ny * nz) / fnum) : 0);
      if (filled && json.particles.perCell && json.initial.numberDensity === referenceDensity(json)) {
        expect(t.initialParticles).toBe(json.particles.perCell * nx * ny * nz);
      }

      const species = parseCase(json).species;
      expect(t.pairs).toHaveLength(species.length ** 2);
      species.forEach((a, i) => species.forEach((b, j) => {
        const pair = t.pairs[i * species.length + j];
        const model = pairModel(a, b);
        expect(pair.crossSection).toBe(model.crossSectionCoefficient);
        close(pair.crExponent, 2 - 2 * model.omega, 'crExponent');
        const alpha = 0.5 * ((json.species[i].alpha ?? 1) + (json.species[j].alpha ?? 1));
        expect(pair.vss).toBe(alpha !== 1 ? 1 : 0);
        close(pair.invAlpha, 1 / alpha, 'invAlpha');
      }));

      FACE_NAMES.forEach((f, k) => {
        const b = json.boundaries[f];
        expect(t.faces[k].kind, f).toBe(BOUNDARY_CODES[b.type as keyof typeof BOUNDARY_CODES]);
        if (b.type === 'diffuse') {
          species.forEach((s, i) => close(t.faceSpecies[k * species.length + i].thermalSpeed, Math.sqrt((BOLTZMANN * b.temperature) / s.mass), `${f} wall speed`));
          expect([t.faces[k].velX, t.faces[k].velY, t.faces[k].velZ], `${f} wall velocity`).toEqual(b.velocity ?? [0, 0, 0]);
        }
      });
    });
  }

  it('collide-box.json is VSS with alpha 1.4', () => {
    const t = buildTables(parseCase(preset('collide-box.json')));
    expect(t.pairs[0].vss).toBe(1);
    close(t.pairs[0].invAlpha, 1 / 1.4, 'invAlpha');
  });

  it('free-stream.json: 16 inflow face cells on xmin and the Maxwellian flux per cell per step', () => {
    const json = preset('free-stream.json');
    const t = buildTables(parseCase(json));
    const [, ny, nz] = json.grid.cells;
    const [, dy, dz] = json.grid.cellSize;
    const m = json.species[0].mass;
    const { numberDensity: n, temperature: T, velocity } = json.boundaries.xmin;
    const fnum = (n * dx3(json)) / json.particles.perCell;
    expect(t.nFaceCells).toBe(ny * nz);
    expect(t.simParams.nInflowFaces).toBe(1);
    expect(t.simParams.nFaceCells).toBe(16);
    expect(t.faces[0]).toMatchObject({ kind: BOUNDARY_CODES.inflow, faceCellBase: 0, faceCellCount: 16 });
    const mean = (maxwellianFlux(n, T, m, velocity[0]) * dy * dz * json.run.dt) / fnum;
    close(t.faceSpecies[0].injectMean, mean, 'injectMean');
    close(t.injectionPerStep, 16 * mean, 'injectionPerStep');
    close(t.faceSpecies[0].speedRatio, velocity[0] / Math.sqrt((2 * BOLTZMANN * T) / m), 'speedRatio');
    close(t.faceSpecies[0].thermalSpeed, Math.sqrt((BOLTZMANN * T) / m), 'thermalSpeed');
    // at speed ratio 3 almost every molecule moves inward: the flux is n u to within 1e-4 (3.18 per cell per step)
    close(t.faceSpecies[0].injectMean, (n * velocity[0] * dy * dz * json.run.dt) / fnum, 'flux ~ n u', 1e-4);
    for (let k = 1; k < 6; k++) expect(t.faceSpecies[k].injectMean).toBe(0);
  });
});

// Cell volume of a case JSON.
function dx3(json: any): number {
  const [dx, dy, dz] = json.grid.cellSize;
  return dx * dy * dz;
}

describe('buildTables on a two-species case with inflows on xmax and ymin', () => {
  const json = {
    name: 'mixture-inflow',
    grid: { cells: [6, 5, 4], cellSize: [1e-3, 2e-3, 3e-3] },
    species: [
      { name: 'Ar', mass: 6.63e-26, dRef: 4.17e-10, omega: 0.81, tRef: 273, alpha: 1 },
      { name: 'N2', mass: 4.65e-26, dRef: 4.07e-10, omega: 0.74, tRef: 273, alpha: 1.36 },
    ],
    particles: { fnum: 1e9 },
    initial: { kind: 'maxwellian', numberDensity: 5.1234e20, temperature: 250, velocity: [0, 0, 0], fractions: { Ar: 3, N2: 1 } },
    boundaries: {
      xmin: { type: 'outflow' },
      xmax: { type: 'inflow', numberDensity: 1e21, temperature: 400, velocity: [-600, 50, 0], fractions: { Ar: 0.25, N2: 0.75 } },
      ymin: { type: 'inflow', numberDensity: 2e21, temperature: 300, velocity: [0, 200, 0] },
      ymax: { type: 'outflow' },
      zmin: { type: 'periodic' }, zmax: { type: 'periodic' },
    },
    run: { steps: 10, dt: 1e-7 },
  };
  const c = parseCase(json);
  const t = buildTables(c);

  it('stores pairs row-major with mixed VSS constants and mass fractions', () => {
    const [ar, n2] = c.species;
    expect(t.pairs[1].crossSection).toBe(pairModel(ar, n2).crossSectionCoefficient);
    expect(t.pairs[2].crossSection).toBe(pairModel(n2, ar).crossSectionCoefficient);
    expect(t.pairs.map((p) => p.vss)).toEqual([0, 1, 1, 1]);
    close(t.pairs[1].invAlpha, 1 / 1.18, 'invAlpha Ar-N2');
    close(t.pairs[1].massFraction1, ar.mass / (ar.mass + n2.mass), 'massFraction1');
    close(t.pairs[2].massFraction1, n2.mass / (ar.mass + n2.mass), 'massFraction1 (N2, Ar)');
    close(t.species[0].initFraction, 0.75, 'initFraction Ar');
  });

  it('numbers face cells face by face (xmax: ny*nz, then ymin: nx*nz) with inward normal speeds', () => {
    expect(t.nFaceCells).toBe(5 * 4 + 6 * 4);
    expect(t.faces[1]).toMatchObject({ kind: BOUNDARY_CODES.inflow, faceCellBase: 0, faceCellCount: 20 });
    expect(t.faces[2]).toMatchObject({ kind: BOUNDARY_CODES.inflow, faceCellBase: 20, faceCellCount: 24 });
    const S = 2;
    const expectMean = (face: number, k: number, x: number, b: any, un: number, area: number) =>
      close(t.faceSpecies[face * S + k].injectMean, (maxwellianFlux(x * b.numberDensity, b.temperature, c.species[k].mass, un) * area * json.run.dt) / 1e9, `face ${face} species ${k}`);
    // xmax: inward normal is -x, so u_n = +600; face cells are dy x dz
    expectMean(1, 0, 0.25, json.boundaries.xmax, 600, 2e-3 * 3e-3);
    expectMean(1, 1, 0.75, json.boundaries.xmax, 600, 2e-3 * 3e-3);
    // ymin: inward normal +y, u_n = +200, equal fractions; face cells are dx x dz
    expectMean(2, 0, 0.5, json.boundaries.ymin, 200, 1e-3 * 3e-3);
    expectMean(2, 1, 0.5, json.boundaries.ymin, 200, 1e-3 * 3e-3);
    const total = 20 * (t.faceSpecies[2].injectMean + t.faceSpecies[3].injectMean) + 24 * (t.faceSpecies[4].injectMean + t.faceSpecies[5].injectMean);
    close(t.injectionPerStep, total, 'injectionPerStep');
  });

  it('fills round(n V / fnum) particles and plans capacity from the densest state', () => {
    const V = 6 * 5 * 4 * 1e-3 * 2e-3 * 3e-3;
    expect(t.initialParticles).toBe(368_885); // n V / fnum = 368,884.8
    close(t.referenceParticles, (2e21 * V) / 1e9, 'referenceParticles');
    close(t.simParams.collisionFactor, (0.5 * 1e9 * 1e-7) / (1e-3 * 2e-3 * 3e-3), 'collisionFactor');
  });
});

describe('buildTables with internal modes', () => {
  /** The collide box with the given species list. */
  const withSpecies = (species: unknown[]) => {
    const json = structuredClone(preset('collide-box.json')) as Record<string, unknown>;
    return buildTables(parseCase({ ...json, species }));
  };

  it('sizes the internal energy words and the migrant records, and fills the vibration constants of each pair', () => {
    const argon = withSpecies([{ use: 'Ar' }]);
    expect([argon.hasRotation, argon.migrantWords]).toEqual([false, 9]);
    const rotating = withSpecies([{ use: 'N2', vibration: null }, { use: 'Ar' }]);
    expect([rotating.hasRotation, rotating.internalWords, rotating.migrantWords]).toEqual([true, 1, 10]);
    const air = withSpecies([{ use: 'N2' }, { use: 'O' }]);
    expect([air.hasRotation, air.internalWords, air.migrantWords]).toEqual([true, 2, 11]);
    // pair (N2, O): only the first molecule vibrates, with N2's quantum and Millikan-White constants
    const p = air.pairs[1];
    close(p.vibKTheta1, BOLTZMANN * 3371, 'k theta of N2');
    expect([p.vibKTheta2 ?? 0, p.mwA2 ?? 0]).toEqual([0, 0]);
    expect(p.mwA1).toBeGreaterThan(0);
    expect(air.species.map((s) => s.vibKTheta ?? 0)).toEqual([BOLTZMANN * 3371, 0]);
  });
});
