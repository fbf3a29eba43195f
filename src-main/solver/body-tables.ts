// Bodies and surfaces of a case turned into what the shaders read (body.wgsl): the triangles of every
// body, the cells each triangle crosses with a gas reference point per cut cell, the gas volume fraction
// of every cell, the surface models (bodies, then the six domain faces) and the fixed-point scales of
// the surface sums. Built the same way on every rank (no GPU here, unit-tested directly).
import { FACES, domainLengths, type Case } from '../common/case-schema.js';
import type { Body } from '../common/body-schema.js';
import { bodyPlacementIssues, buildCellTable, MAX_BODY_TRIANGLES, meshIssues, tessellateShape, triangleBudgetIssue, type CellTable } from '../common/geometry/index.js';
import { tooManyTrianglesError } from '../common/geometry/stl.js';
import { CaseError, type CaseIssue } from '../common/case-errors.js';
import { BOLTZMANN, vibrationalQuantum } from '../common/physics.js';
import { DOMAIN_FACE_ELEMENTS, FACE_COPIES } from '../common/surface-layout.js';
import { SURFACE_MODEL_CODES, UNIFORM_TABLES } from './gpu/struct-layouts.js';
import { fixedScale, speedBound } from './fixed-point.js';
import { readStlFile } from './stl-file.js';

type Values = Record<string, number>;

/** Words per triangle in bodyData (body.wgsl tri_vec). */
export const TRI_WORDS = 16;

/** Everything about bodies and surfaces the GPU state and the host need. */
export interface BodyTables {
  /** Triangles of all bodies (9 numbers each), body after body. */
  tris: Float64Array;
  /** Body index of each triangle. */
  triBody: Int32Array;
  nTris: number;
  nBodies: number;
  /** The geometry warnings found while the bodies were placed (thinner than a cell), for the pre-launch check. */
  warnings: CaseIssue[];
  /** Per global cell: 0 gas, 1 cut, 2 inside a body (all 0 without bodies). */
  cellKind: Uint8Array | null;
  /** Per global cell: gas volume / cell volume (null without bodies: all 1). */
  volumeFraction: Float64Array | null;
  /** body.wgsl's bodyData (a stub without bodies). */
  bodyData: Uint32Array<ArrayBufferLike>;
  /** Surface models: each body, then the six domain faces. */
  surfModels: Values[];
  /** (model, species) entries, MAX_SPECIES per model. */
  surfSpecies: Values[];
  /** Fixed-point scales of momentum and energy per unit of the reference mass. */
  scaleP: number;
  scaleE: number;
  /** A speed few molecules exceed (the fixed-point sums' scales are set by it), m/s. */
  vmax: number;
  /** The reference mass (the heaviest species), kg. */
  massRef: number;
  /** Distance a particle is set off a body after a reflection, m. */
  bodyEps: number;
  /** Surface elements sampled: the triangles, then the domain faces. */
  elements: number;
  /** Elements of the GPU's sums: the triangles, then FACE_COPIES copies of each domain face. */
  gpuElements: number;
  /** First word of the triangles in bodyData. */
  triBase: number;
}

/** Reads an STL body's file (absolute, or relative to the working folder), naming the body on failure. */
function stlBytes(body: Body, index: number): Uint8Array | undefined {
  if (body.shape.type !== 'stl') return undefined;
  try {
    return readStlFile(body.shape.file);
  } catch (e) {
    throw new Error(`bodies[${index}] ("${body.name}"): cannot read the STL file ${body.shape.file}: ${(e as Error).message}; check bodies[${index}].shape.file`);
  }
}

/** Tessellates every body, naming the body when its shape or STL file cannot be read. */
function tessellateBodies(c: Case): Float64Array[] {
  const domain = domainLengths(c);
  // built-in shapes are counted before anything is meshed: a case over the limit is refused at once
  const budget = triangleBudgetIssue(c.bodies, domain, c.grid.cellSize);
  if (budget) throw new CaseError([{ path: 'bodies', message: budget }]);
  let total = 0;
  return c.bodies.map((b, i) => {
    let tris: Float64Array;
    try {
      tris = tessellateShape(b.shape, domain, stlBytes(b, i), c.grid.cellSize);
    } catch (e) {
      throw new CaseError([{ path: `bodies[${i}].shape`, message: `body "${b.name}": ${(e as Error).message}` }]);
    }
    total += tris.length / 9;
    if (total > MAX_BODY_TRIANGLES) {
      throw new CaseError([{ path: `bodies[${i}].shape`, message: `body "${b.name}": ${tooManyTrianglesError(total, `with this body the case (bodies[0..${i}])`).message}` }]);
    }
    return tris;
  });
}

/**
 * Geometry problems of a case's bodies: errors (not watertight, inverted, degenerate, outside the box, on an
 * inflow face, overlapping) with the body's path, and warnings (thinner than a cell).
 */
export function bodyGeometryIssues(c: Case, perBody = tessellateBodies(c)): { errors: CaseIssue[]; warnings: CaseIssue[] } {
  const errors: CaseIssue[] = [];
  perBody.forEach((tris, i) => {
    // a built-in shape is one convex shell: no crossing to look for (mesh-check.ts)
    for (const m of meshIssues(tris, c.bodies[i].shape.type === 'stl')) errors.push({ path: `bodies[${i}].shape`, message: `body "${c.bodies[i].name}": ${m}` });
  });
  if (errors.length > 0) return { errors, warnings: [] };
  const placed = bodyPlacementIssues(
    perBody.map((tris, i) => ({ name: c.bodies[i].name, tris })), domainLengths(c), c.grid.cells, c.grid.cellSize,
    FACES.map((f) => c.boundaries[f].type === 'inflow'),
  );
  // each message names its body (the first, for an overlap): the issue gets that body's path (names are unique)
  const pathOf = (message: string): string => {
    const quoted = /^bod(?:y|ies) "((?:[^"\\]|\\.)*)"/.exec(message)?.[1];
    const i = c.bodies.findIndex((b) => b.name === quoted);
    return i >= 0 ? `bodies[${i}].shape` : 'bodies';
  };
  return {
    errors: placed.errors.map((message) => ({ path: pathOf(message), message })),
    warnings: placed.warnings.map((message) => ({ path: pathOf(message), message })),
  };
}

/** The triangles of every body of a case, and the body of each; throws a CaseError on bad geometry. */
export function bodyTriangles(c: Case): { tris: Float64Array; triBody: Int32Array; perBody: Float64Array[]; warnings: CaseIssue[] } {
  const perBody = tessellateBodies(c);
  const { errors, warnings } = bodyGeometryIssues(c, perBody);
  if (errors.length > 0) throw new CaseError(errors);
  const total = perBody.reduce((n, t) => n + t.length / 9, 0);
  const tris = new Float64Array(9 * total);
  const triBody = new Int32Array(total);
  let at = 0;
  perBody.forEach((t, i) => {
    tris.set(t, 9 * at);
    triBody.fill(i, at, at + t.length / 9);
    at += t.length / 9;
  });
  return { tris, triBody, perBody, warnings };
}

/**
 * Triangles lying in a face of the box with their front (gas) side outside it, e.g. the end caps of a body extruded
 * through a 2D case: no molecule inside the box can reach them from the front, and listing them for the GPU let a
 * molecule set off the rim after a hit count them (slack of the triangle test, hits a hair behind the start) and
 * bounce between the two caps every step (issue 25 item 17). They stay in the mesh (volumes, outlines, areas).
 */
export function domainFaceTriangles(tris: Float64Array, domain: [number, number, number]): Uint8Array {
  const n = tris.length / 9;
  const out = new Uint8Array(n);
  for (let t = 0; t < n; t++) {
    const p = 9 * t;
    const e1 = [tris[p + 3] - tris[p], tris[p + 4] - tris[p + 1], tris[p + 5] - tris[p + 2]];
    const e2 = [tris[p + 6] - tris[p], tris[p + 7] - tris[p + 1], tris[p + 8] - tris[p + 2]];
    const nrm = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    for (let a = 0; a < 3 && !out[t]; a++) {
      const tol = 1e-6 * domain[a];
      const at = (x: number) => [tris[p + a], tris[p + 3 + a], tris[p + 6 + a]].every((v) => Math.abs(v - x) <= tol);
      if ((nrm[a] < 0 && at(0)) || (nrm[a] > 0 && at(domain[a]))) out[t] = 1;
    }
  }
  return out;
}

/** The bodyData words: cell offsets, cut-cell lists, then the triangles (f32 bits). */
function packBodyData(table: CellTable, tris: Float64Array, triBody: Int32Array, nCells: number, domain: [number, number, number]): { data: Uint32Array; triBase: number } {
  const nTris = triBody.length;
  const onFace = domainFaceTriangles(tris, domain);
  // each cell's list without the triangles on a domain face (no gas reaches their front side): counted first, then
  // written (no array per cell: millions of cells)
  const { triStart, triList } = table;
  const keptCount = new Uint32Array(nCells);
  let listWords = 0;
  for (let g = 0; g < nCells; g++) {
    let kept = 0;
    for (let e = triStart[g]; e < triStart[g + 1]; e++) if (!onFace[triList[e]]) kept++;
    keptCount[g] = kept;
    if (kept > 0) listWords += 4 + kept;
  }
  // word 0 of the lists is never an offset (0 means "no list"): lists start at nCells + 1
  const triBase = nCells + 1 + listWords;
  const data = new Uint32Array(triBase + TRI_WORDS * nTris);
  const f32 = new Float32Array(data.buffer);
  let o = nCells + 1;
  for (let g = 0; g < nCells; g++) {
    const n = keptCount[g];
    if (n === 0) continue;
    data[g] = o;
    data[o] = n;
    f32[o + 1] = table.refPoint[3 * g];
    f32[o + 2] = table.refPoint[3 * g + 1];
    f32[o + 3] = table.refPoint[3 * g + 2];
    let w = o + 4;
    for (let e = triStart[g]; e < triStart[g + 1]; e++) if (!onFace[triList[e]]) data[w++] = triList[e];
    o += 4 + n;
  }
  for (let t = 0; t < nTris; t++) {
    const w = triBase + TRI_WORDS * t;
    const p = tris.subarray(9 * t, 9 * t + 9);
    for (let k = 0; k < 3; k++) {
      f32[w + 4 * k] = p[3 * k];
      f32[w + 4 * k + 1] = p[3 * k + 1];
      f32[w + 4 * k + 2] = p[3 * k + 2];
    }
    data[w + 3] = triBody[t];
    const e1 = [p[3] - p[0], p[4] - p[1], p[5] - p[2]];
    const e2 = [p[6] - p[0], p[7] - p[1], p[8] - p[2]];
    const nx = e1[1] * e2[2] - e1[2] * e2[1];
    const ny = e1[2] * e2[0] - e1[0] * e2[2];
    const nz = e1[0] * e2[1] - e1[1] * e2[0];
    const len = Math.hypot(nx, ny, nz) || 1;
    f32[w + 12] = nx / len;
    f32[w + 13] = ny / len;
    f32[w + 14] = nz / len;
  }
  return { data, triBase };
}

/** Surface model values of a body surface or a domain face. */
function modelValues(kind: number, accommodation: number, velocity: readonly number[]): Values {
  return { kind, accommodation, velX: velocity[0], velY: velocity[1], velZ: velocity[2] };
}

/** A case's bodies meshed (bodyTriangles) and their cell table (null without triangles), when made ahead (tables.ts: buildTablesOnThreads). */
export interface BodyGeometry {
  tris: Float64Array;
  triBody: Int32Array;
  warnings: CaseIssue[];
  table: CellTable | null;
}

/** Builds the body and surface tables of a parsed case; tHot is the hottest temperature anywhere in it; `made`: its geometry made already. */
export function buildBodyTables(c: Case, tHot: number, made?: BodyGeometry): BodyTables {
  const { cells, cellSize } = c.grid;
  const nCells = cells[0] * cells[1] * cells[2];
  const { tris, triBody, warnings } = made ?? bodyTriangles(c);
  const nTris = triBody.length;
  const nBodies = c.bodies.length;
  let cellKind: Uint8Array | null = null;
  let volumeFraction: Float64Array | null = null;
  let bodyData: Uint32Array = new Uint32Array(4);
  let triBase = 0;
  if (nTris > 0) {
    const table = made?.table ?? buildCellTable(tris, { cells, cellSize });
    cellKind = table.kind;
    volumeFraction = table.volumeFraction;
    ({ data: bodyData, triBase } = packBodyData(table, tris, triBody, nCells, domainLengths(c)));
  }
  const massRef = Math.max(...c.species.map((s) => s.mass));
  const surfModels: Values[] = c.bodies.map((b) =>
    b.surface.model === 'specular'
      ? modelValues(SURFACE_MODEL_CODES.specular, 0, [0, 0, 0])
      : modelValues(SURFACE_MODEL_CODES[b.surface.model], b.surface.model === 'maxwell' ? b.surface.accommodation : 1, b.surface.velocity),
  );
  const wallTemps: (number | null)[] = c.bodies.map((b) => (b.surface.model === 'specular' ? null : b.surface.temperature));
  for (const f of FACES) {
    const b = c.boundaries[f];
    surfModels.push(modelValues(b.type === 'diffuse' ? SURFACE_MODEL_CODES.diffuse : SURFACE_MODEL_CODES.specular, 1, b.type === 'diffuse' ? b.velocity : [0, 0, 0]));
    wallTemps.push(b.type === 'diffuse' ? b.temperature : null);
  }
  const surfSpecies: Values[] = [];
  wallTemps.forEach((tw) => {
    for (let k = 0; k < UNIFORM_TABLES.MAX_SPECIES; k++) {
      const s = c.species[k];
      surfSpecies.push(s ? {
        thermalSpeed: tw === null ? 0 : Math.sqrt((BOLTZMANN * tw) / s.mass),
        massRatio: s.mass / massRef,
        rotKT: tw === null || s.rotationalDof === 0 ? 0 : BOLTZMANN * tw,
        vibKTheta: vibrationalQuantum(s),
      } : {});
    }
  });
  const vmax = speedBound(c, Math.max(tHot, ...wallTemps.map((t) => t ?? 0)));
  const [lx, ly, lz] = domainLengths(c);
  // off the surface by more than the rounding of an f32 position in the box, and far below a cell
  const bodyEps = Math.max(1e-5 * Math.min(...cellSize), 8 * Math.max(lx, ly, lz) * 2 ** -24);
  return {
    tris, triBody, nTris, nBodies, cellKind, volumeFraction, bodyData, surfModels, surfSpecies, warnings,
    // one hit's value stays below 2^24: the 64-bit sums hold 2^39 fastest hits before they could overflow
    scaleP: fixedScale(vmax, 24), scaleE: fixedScale(0.5 * vmax * vmax, 24), massRef, bodyEps, vmax,
    elements: nTris + DOMAIN_FACE_ELEMENTS,
    gpuElements: nTris + DOMAIN_FACE_ELEMENTS * FACE_COPIES,
    triBase,
  };
}

/** The SimParams values of the bodies and surfaces. */
export function bodyParams(b: BodyTables, c: Case): Values {
  return {
    sampleEnabled: c.sampling.enabled ? 1 : 0,
    sampleStart: c.sampling.start,
    sampleInterval: c.sampling.interval,
    nTris: b.nTris,
    nBodies: b.nBodies,
    surfScaleP: b.scaleP,
    surfScaleE: b.scaleE,
    bodyEps: b.bodyEps,
    triBase: b.triBase,
  };
}
