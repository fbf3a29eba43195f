// Turns a parsed case into the constants and tables the shaders read (no GPU here, so it is
// unit-tested directly): SimParams, species pairs, faces, inflow rates and the initial fill.
import {
  FACES, cellCount, cellVolume, domainLengths, domainVolume, moleFractions, resolvedFnum, type Case,
} from '../common/case-schema.js';
import { BOLTZMANN, maxwellianFlux, millikanWhite, mostProbableSpeed, pairModel, vibrationalQuantum } from '../common/physics.js';
import { bodyTriangles, buildBodyTables, bodyParams, type BodyGeometry, type BodyTables } from './body-tables.js';
import { buildCellTableOnThreads, tableThreads } from './cell-table-threads.js';
import { sampleEnergyScale, sampleScales } from './fixed-point.js';
import { BOUNDARY_CODES, MIGRANT_WORDS } from './gpu/struct-layouts.js';
import { buildReactionTables, type ReactionTables } from './reaction-tables.js';

type Values = Record<string, number>;

/** Everything the GPU state is built from, in SI units. */
export interface SolverTables {
  simParams: Values;
  pairs: Values[];
  species: Values[];
  faces: Values[];
  faceSpecies: Values[];
  init: Values;
  fnum: number;
  nCells: number;
  nFaceCells: number;
  initialParticles: number;
  /** Expected particles injected per step over all inflow faces. */
  injectionPerStep: number;
  /** Particle count of the whole box at the reference density (capacity planning). */
  referenceParticles: number;
  /** Start value of every cell's (sigma_T c_r)_max. */
  sigmaCrMaxInit: number;
  /** Whether the case samples fields at all (sampling.enabled). */
  sampling: boolean;
  /** Bodies, cut cells and surface sampling (body-tables.ts). */
  bodies: BodyTables;
  /** Whether a species rotates: the particles then carry their internal energy (HAS_ROTATION). */
  hasRotation: boolean;
  /** Words of internal energy per particle (INTERNAL_WORDS): 1 (rotation) or 2 (rotation and vibration). */
  internalWords: 1 | 2;
  /** Words of one migrant record (MIGRANT_WORDS): 9, plus the internal energy words when a species rotates. */
  migrantWords: number;
  /** Gas-phase reactions (REACTIONS), or null. */
  reactions: ReactionTables | null;
}

/** Tangential axes of a face normal to axis a (the order inject.wgsl uses). */
export function tangentialAxes(axis: number): [number, number] {
  return axis === 0 ? [1, 2] : axis === 1 ? [0, 2] : [0, 1];
}

/** Highest temperature anywhere in the case (initial gas, inflows, walls). */
export function hottest(c: Case): number {
  let t = c.initial.temperature;
  for (const f of FACES) {
    const b = c.boundaries[f];
    if (b.type === 'diffuse' || b.type === 'inflow') t = Math.max(t, b.temperature);
  }
  return t;
}

/**
 * buildTables with the bodies' cell table made on threads (cell-table-threads.ts): the same tables. `processes`: how
 * many processes of this host build tables at once (a multi-rank run's ranks and orchestrator share the cores).
 */
export async function buildTablesOnThreads(c: Case, processes = 1): Promise<SolverTables> {
  if (c.bodies.length === 0) return buildTables(c);
  const { tris, triBody, warnings } = bodyTriangles(c);
  const grid = { cells: c.grid.cells, cellSize: c.grid.cellSize };
  const table = tris.length > 0 ? await buildCellTableOnThreads(tris, grid, tableThreads(cellCount(c), processes)) : null;
  return buildTables(c, { tris, triBody, warnings, table });
}

/** Builds the solver tables of a parsed case; `bodies`: its bodies' triangles and cell table, made already (buildTablesOnThreads). */
export function buildTables(c: Case, bodies?: BodyGeometry): SolverTables {
  const [nx, ny, nz] = c.grid.cells;
  const [dx, dy, dz] = c.grid.cellSize;
  const [lx, ly, lz] = domainLengths(c);
  const nCells = cellCount(c);
  const fnum = resolvedFnum(c);
  const nSpecies = c.species.length;
  const dt = c.run.dt;

  // species pairs, row-major [i][j]
  const pairs: Values[] = [];
  const tHot = hottest(c);
  let sigmaCrMaxInit = 0;
  for (const a of c.species) {
    for (const b of c.species) {
      const p = pairModel(a, b);
      const crExponent = 2 - 2 * p.omega;
      pairs.push({
        crossSection: p.crossSectionCoefficient,
        crExponent,
        invAlpha: 1 / p.alpha,
        massFraction1: a.mass / (a.mass + b.mass),
        massFraction2: b.mass / (a.mass + b.mass),
        vss: p.alpha !== 1 ? 1 : 0,
        rotRelax1: a.rotationalDof > 0 ? 1 / (a.parker?.zInf ?? a.rotationalRelaxation) : 0,
        rotRelax2: b.rotationalDof > 0 ? 1 / (b.parker?.zInf ?? b.rotationalRelaxation) : 0,
        // Parker's Zrot per molecule (zInf 0: the constant one)
        zInf1: a.rotationalDof > 0 && a.parker ? a.parker.zInf : 0,
        tStar1: a.rotationalDof > 0 && a.parker ? a.parker.tStar : 0,
        zInf2: b.rotationalDof > 0 && b.parker ? b.parker.zInf : 0,
        tStar2: b.rotationalDof > 0 && b.parker ? b.parker.tStar : 0,
        lbExponent: 1 / (2.5 - p.omega),
        reducedMass: p.reducedMass,
        omega: p.omega,
        ...vibrationValues(a, p, '1'),
        ...vibrationValues(b, p, '2'),
      });
      // a relative speed three times the most probable one of the hottest state: rarely exceeded
      const cr0 = 3 * Math.sqrt((2 * BOLTZMANN * tHot) / p.reducedMass);
      sigmaCrMaxInit = Math.max(sigmaCrMaxInit, p.crossSectionCoefficient * Math.pow(cr0, crExponent));
    }
  }

  // faces and inflow face cells
  const faces: Values[] = [];
  const faceSpecies: Values[] = [];
  let nFaceCells = 0;
  let nInflowFaces = 0;
  let injectionPerStep = 0;
  FACES.forEach((name, f) => {
    const b = c.boundaries[name];
    const axis = Math.floor(f / 2);
    const inward = f % 2 === 0 ? 1 : -1;
    const [t1, t2] = tangentialAxes(axis);
    const vel = b.type === 'diffuse' || b.type === 'inflow' ? b.velocity : [0, 0, 0];
    const face: Values = { kind: BOUNDARY_CODES[b.type], velX: vel[0], velY: vel[1], velZ: vel[2] };
    if (b.type === 'inflow') {
      const count = c.grid.cells[t1] * c.grid.cells[t2];
      face.faceCellBase = nFaceCells;
      face.faceCellCount = count;
      nFaceCells += count;
      nInflowFaces += 1;
    }
    faces.push(face);
    const x = b.type === 'inflow' ? moleFractions(c, b.fractions) : c.species.map(() => 0);
    c.species.forEach((s, k) => {
      if (b.type === 'inflow') {
        const un = vel[axis] * inward;
        const area = c.grid.cellSize[t1] * c.grid.cellSize[t2];
        const mean = (maxwellianFlux(x[k] * b.numberDensity, b.temperature, s.mass, un) * area * dt) / fnum;
        injectionPerStep += mean * face.faceCellCount;
        faceSpecies.push({
          thermalSpeed: Math.sqrt((BOLTZMANN * b.temperature) / s.mass),
          injectMean: mean,
          speedRatio: un / mostProbableSpeed(b.temperature, s.mass),
          rotKT: s.rotationalDof > 0 ? BOLTZMANN * b.temperature : 0,
          vibKTheta: vibrationalQuantum(s),
        });
      } else if (b.type === 'diffuse') {
        faceSpecies.push({
          thermalSpeed: Math.sqrt((BOLTZMANN * b.temperature) / s.mass), injectMean: 0, speedRatio: 0,
          rotKT: s.rotationalDof > 0 ? BOLTZMANN * b.temperature : 0,
          vibKTheta: vibrationalQuantum(s),
        });
      } else {
        faceSpecies.push({ thermalSpeed: 0, injectMean: 0, speedRatio: 0 });
      }
    });
  });

  const bodyTables = buildBodyTables(c, tHot, bodies);

  // initial fill (drawn over the whole box; those inside bodies are dropped on the GPU)
  const filled = c.initial.kind !== 'empty' && c.initial.numberDensity > 0;
  const initialParticles = filled ? Math.round((c.initial.numberDensity * domainVolume(c)) / fnum) : 0;
  const xInit = moleFractions(c, c.initial.fractions);
  const species = c.species.map((s, k) => ({
    mass: s.mass,
    initFraction: xInit[k],
    initThermalSpeed: Math.sqrt((BOLTZMANN * c.initial.temperature) / s.mass),
    rotDof: s.rotationalDof,
    vibKTheta: vibrationalQuantum(s),
  }));
  const init: Values = {
    count: initialParticles,
    kind: c.initial.kind === 'plusMinus' ? 1 : 0,
    velX: c.initial.velocity[0],
    velY: c.initial.velocity[1],
    velZ: c.initial.velocity[2],
    rotTemperature: c.initial.rotationalTemperature ?? c.initial.temperature,
    vibTemperature: c.initial.vibrationalTemperature ?? c.initial.temperature,
  };

  let nRef = filled ? c.initial.numberDensity : 0;
  for (const f of FACES) {
    const b = c.boundaries[f];
    if (b.type === 'inflow') nRef = Math.max(nRef, b.numberDensity);
  }

  const simParams: Values = {
    nx, ny, nz, nCells, dx, dy, dz, dt, lx, ly, lz, nSpecies,
    invDx: 1 / dx, invDy: 1 / dy, invDz: 1 / dz,
    collisionFactor: (0.5 * fnum * dt) / cellVolume(c),
    seedLo: c.run.seed, seedHi: 0x5eed,
    nFaceCells, nInflowFaces,
    ...bodyParams(bodyTables, c),
    ...sampleScaleParams(bodyTables.vmax, Math.max(...c.species.map((s) => s.mass))),
  };
  return {
    simParams, pairs, species, faces, faceSpecies, init, fnum, nCells, nFaceCells, bodies: bodyTables,
    initialParticles, injectionPerStep, sigmaCrMaxInit, sampling: c.sampling.enabled,
    hasRotation: c.species.some((s) => s.rotationalDof > 0),
    internalWords: internalWordsOf(c),
    migrantWords: migrantWordsOf(c),
    reactions: buildReactionTables(c),
    referenceParticles: (nRef * domainVolume(c)) / fnum,
  };
}

/** Words of internal energy per particle of case c: 2 when a species vibrates, else 1 (rotation, or a stub). */
function internalWordsOf(c: Case): 1 | 2 {
  return c.species.some((s) => s.vibration) ? 2 : 1;
}

/** Words of one migrant record of case c: position, velocity, cell word, key, and the internal energy when a species rotates. */
export function migrantWordsOf(c: Case): number {
  return MIGRANT_WORDS + (c.species.some((s) => s.rotationalDof > 0) ? internalWordsOf(c) : 0);
}

/** PairInfo's vibration fields of molecule `which` ('1' or '2') of pair p: its quantum, 1/Zvib and Millikan-White's ln Z. */
function vibrationValues(s: Case['species'][number], p: ReturnType<typeof pairModel>, which: '1' | '2'): Values {
  if (!s.vibration) return {};
  const mw = s.vibration.millikanWhite ? millikanWhite(s.vibration.characteristicTemperature, p) : null;
  return {
    [`vibKTheta${which}`]: vibrationalQuantum(s),
    [`vibRelax${which}`]: 1 / s.vibration.relaxation,
    [`mwA${which}`]: mw ? mw.a : 0,
    [`mwC${which}`]: mw ? mw.c : 0,
  };
}

/** The SimParams values of the sampled moments' fixed-point scales (sample.wgsl): velocity moments and internal energies. */
function sampleScaleParams(vmax: number, mMax: number): Values {
  const [sampleScale1, sampleScale2, sampleScale3] = sampleScales(vmax);
  return { sampleScale1, sampleScale2, sampleScale3, sampleScaleE: sampleEnergyScale(vmax, mMax) };
}
