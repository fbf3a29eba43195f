// Checks of body meshes before a run: each mesh closed, manifold, consistently and outward oriented, without
// degenerate triangles; and the bodies' placement in the box (inside it, clear of inflow faces, not
// overlapping each other, not thinner than a cell). Messages name the triangle, edge or bodies at fault.
import { FACES } from '../case-helpers.js';
import { meshBounds, meshVolume, type MeshBounds } from './mesh-properties.js';
import { trianglesIntersect } from './triangle-intersect.js';

/** Smallest body extent (diagonal of its bounds) in metres: the smallest cell a case may have (1 nm). Below it the relative tolerances underflow. */
export const MIN_BODY_EXTENT = 1e-9;

/** At most this many messages of one kind; the rest are counted in one more line. */
const MAX_PER_KIND = 5;

// A number for a message: 4 significant digits, no trailing noise.
function fmt(x: number): string {
  return Number(x.toPrecision(4)).toString();
}

// "(x, y, z)" of the vertex starting at index p.
function point(tris: Float64Array, p: number): string {
  return `(${fmt(tris[p])}, ${fmt(tris[p + 1])}, ${fmt(tris[p + 2])})`;
}

// Collects messages of one kind, keeping the first MAX_PER_KIND and counting the rest.
class Capped {
  readonly lines: string[] = [];
  private extra = 0;
  constructor(private readonly what: string) {}
  // Adds one message.
  add(line: string): void {
    if (this.lines.length < MAX_PER_KIND) this.lines.push(line);
    else this.extra++;
  }
  // The messages kept plus "... and N more".
  done(): string[] {
    return this.extra > 0 ? [...this.lines, `... and ${this.extra} more ${this.what}: repair them the same way (or remove the body)`] : this.lines;
  }
}

/**
 * Problems of one closed body mesh, as sentences naming the triangle (counted from 0) or edge: non-finite
 * coordinates, degenerate triangles (area < 1e-12 of the bounds' diagonal squared), open edges (not
 * watertight), edges shared by more than two triangles (non-manifold) or twice in the same direction
 * (inconsistent orientation), shells that cross or nest, a surface that passes through itself, and inward normals
 * (negative signed volume). Vertices are merged when equal after quantizing to 1e-9 of the bounds' diagonal. Empty
 * when the mesh is fine. `crossings` false leaves out the shells' and the surface's crossings (the built-in shapes:
 * one convex shell, which cannot pass through itself; a test checks their meshes with it on): on a fine mesh that
 * search is the costly part (a second of the full-size wedge's set-up).
 */
export function meshIssues(tris: Float64Array, crossings = true): string[] {
  const n = Math.floor(tris.length / 9);
  if (n === 0) return ['the mesh has no triangles'];
  if (tris.length % 9 !== 0) return [`the mesh array has ${tris.length} numbers, not a multiple of 9 (3 vertices of 3 coordinates per triangle)`];
  for (let i = 0; i < tris.length; i++) {
    if (!Number.isFinite(tris[i])) return [`triangle ${Math.floor(i / 9)} has a non-finite coordinate (${tris[i]}); remove that triangle or write the mesh again`];
  }
  const b = meshBounds(tris);
  const diag = Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
  if (!(diag > 0)) return ['the mesh has no extent: all its vertices are the same point; check its units and set its scale (an STL in mm needs "scale": 0.001), or remove the body'];
  if (diag < MIN_BODY_EXTENT) {
    return [`the mesh is ${diag.toExponential(3)} m across (the diagonal of its bounds), below the smallest body dsmc meshes, ${MIN_BODY_EXTENT} m (the smallest cell); ` +
      'check its units and set its scale (an STL in mm needs "scale": 0.001)'];
  }

  // merge vertices by their quantized coordinates
  const q = 1e-9 * diag;
  const ids = new Map<string, number>();
  const vid = new Uint32Array(3 * n);
  for (let v = 0; v < 3 * n; v++) {
    const key = `${Math.round((tris[3 * v] - b.min[0]) / q)},${Math.round((tris[3 * v + 1] - b.min[1]) / q)},${Math.round((tris[3 * v + 2] - b.min[2]) / q)}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    vid[v] = id;
  }

  const degenerate = new Capped('degenerate triangles');
  const minArea = 1e-12 * diag * diag;
  const bad = new Uint8Array(n);
  for (let t = 0; t < n; t++) {
    const p = 9 * t;
    const ax = tris[p + 3] - tris[p], ay = tris[p + 4] - tris[p + 1], az = tris[p + 5] - tris[p + 2];
    const bx = tris[p + 6] - tris[p], by = tris[p + 7] - tris[p + 1], bz = tris[p + 8] - tris[p + 2];
    const area = 0.5 * Math.hypot(ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx);
    const a = vid[3 * t], c = vid[3 * t + 1], d = vid[3 * t + 2];
    if (area < minArea || a === c || c === d || d === a) {
      bad[t] = 1;
      degenerate.add(
        `triangle ${t} is degenerate (area ${fmt(area)}): its vertices ${point(tris, p)}, ${point(tris, p + 3)}, ${point(tris, p + 6)} ` +
          'are (nearly) collinear or coincide; remove it or re-mesh the surface',
      );
    }
  }

  // edges: per undirected edge (lo, hi) the triangles using it as lo -> hi and as hi -> lo
  const nv = ids.size;
  const edges = new Map<number, { fwd: number; back: number; first: number; second: number; firstP: number }>();
  for (let t = 0; t < n; t++) {
    if (bad[t]) continue;
    for (let e = 0; e < 3; e++) {
      const a = vid[3 * t + e], c = vid[3 * t + ((e + 1) % 3)];
      const key = a < c ? a * nv + c : c * nv + a;
      let rec = edges.get(key);
      if (!rec) {
        rec = { fwd: 0, back: 0, first: t, second: -1, firstP: 9 * t + 3 * e };
        edges.set(key, rec);
      } else if (rec.second < 0) rec.second = t;
      if (a < c) rec.fwd++;
      else rec.back++;
    }
  }
  const open = new Capped('open edges');
  const nonManifold = new Capped('non-manifold edges');
  const flipped = new Capped('inconsistently oriented edges');
  for (const rec of edges.values()) {
    const p = rec.firstP;
    const e = (p % 9) / 3;
    const p2 = 9 * rec.first + 3 * ((e + 1) % 3);
    const count = rec.fwd + rec.back;
    // the edge's words only for a message (a fine mesh has many thousand good edges)
    if (count === 2 && rec.fwd === 1) continue;
    const edge = `from ${point(tris, p)} to ${point(tris, p2)}`;
    if (count === 1) {
      open.add(`open edge ${edge} (triangle ${rec.first}): the surface is not closed (watertight); close it in your CAD tool`);
    } else if (count > 2) {
      nonManifold.add(`edge ${edge} is shared by ${count} triangles (first ${rec.first}, ${rec.second}): the surface is non-manifold; each edge must join exactly two triangles: remove the extra triangles or re-mesh the surface`);
    } else if (rec.fwd !== 1) {
      flipped.add(
        `triangles ${rec.first} and ${rec.second} run along the edge ${edge} in the same direction: their orientations disagree ` +
          '(one normal points in, one out); write the STL again with every triangle counter-clockwise seen from outside',
      );
    }
  }

  const issues = [...degenerate.done(), ...open.done(), ...nonManifold.done(), ...flipped.done()];
  if (issues.length === 0 && crossings) issues.push(...shellIssues(tris, vid, ids.size));
  const volume = meshVolume(tris);
  if (Math.abs(volume) < 1e-12 * diag * diag * diag) issues.push(`the mesh encloses no volume (signed volume ${volume.toExponential(1)} m^3); use a closed surface around a solid (write the STL with outward normals)`);
  else if (volume < 0) issues.push(`the normals point inward (signed volume ${volume.toExponential(1)} m^3); reverse the triangle order (write the STL with outward normals, counter-clockwise seen from outside)`);
  return issues;
}

/** Shells compared pairwise at most (a mesh of more separate shells is checked for the first ones only). */
const MAX_SHELLS = 200;

// The triangles of each shell (connected by shared vertices) of a closed mesh, as separate arrays.
function shellsOf(tris: Float64Array, vid: Uint32Array, nv: number): Float64Array[] {
  const parent = Int32Array.from({ length: nv }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const n = vid.length / 3;
  for (let t = 0; t < n; t++) {
    const a = find(vid[3 * t]);
    for (let e = 1; e < 3; e++) { const b = find(vid[3 * t + e]); if (a !== b) parent[b] = a; }
  }
  const byRoot = new Map<number, number[]>();
  for (let t = 0; t < n; t++) {
    const r = find(vid[3 * t]);
    let list = byRoot.get(r);
    if (!list) byRoot.set(r, (list = []));
    list.push(t);
  }
  return [...byRoot.values()].map((list) => {
    const out = new Float64Array(9 * list.length);
    list.forEach((t, k) => out.set(tris.subarray(9 * t, 9 * t + 9), 9 * k));
    return out;
  });
}

/**
 * Problems between the shells of one closed mesh (issue 25 item 3): two shells whose surfaces cross (overlapping
 * solids written into one STL), and a shell inside another with outward normals (a nested shell: the solver would
 * count gas in the space between them and the buried faces in the area). A shell inside another with inward
 * normals is a cavity, which is fine. Shells are compared pairwise, the first MAX_SHELLS of them.
 */
function shellIssues(tris: Float64Array, vid: Uint32Array, nv: number): string[] {
  const shells = shellsOf(tris, vid, nv);
  if (shells.length < 2) return selfCrossingIssues(tris, vid);
  const list = shells.slice(0, MAX_SHELLS).map((t) => ({ t, b: meshBounds(t), v: meshVolume(t) }));
  const issues = new Capped('problems between shells');
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const why = overlap(list[i].t, list[i].b, list[j].t, list[j].b);
      if (!why) continue;
      const [outer, inner] = why.includes('first lies inside') ? [j, i] : [i, j];
      if (why.includes('lies inside')) {
        if (list[inner].v < 0 && list[outer].v > 0) continue; // a cavity
        issues.add(`the mesh has a shell inside another, both facing out (shell ${inner + 1} of ${shells.length}, ${list[inner].t.length / 9} triangles, ` +
          `inside shell ${outer + 1}): remove the inner shell, or reverse its triangles if it is a cavity`);
      } else {
        issues.add(`two shells of the mesh (${i + 1} and ${j + 1} of ${shells.length}) cross each other: ${why.replace('their surfaces', 'the surfaces')}; ` +
          'merge them into one closed surface (a boolean union in your CAD tool) or remove one');
      }
    }
  }
  const found = issues.done();
  return found.length > 0 ? found : selfCrossingIssues(tris, vid);
}

// The message for a surface that passes through itself (two triangles sharing no vertex meet), or none.
function selfCrossingIssues(tris: Float64Array, vid: Uint32Array): string[] {
  const self = selfCrossing(tris, vid);
  if (!self) return [];
  return [`triangles ${self.t} and ${self.u} of the mesh cross each other near ${point(self.at, 0)} (they share no vertex): the surface passes ` +
    'through itself; repair it in your CAD tool (remove the self-intersection, e.g. a boolean union of the parts) or write it again'];
}

/**
 * Two triangles of the mesh that share no vertex yet meet (the surface passes through itself, or two of its shells
 * cross), found with a uniform grid of the triangles' bounds; null when there are none. Triangles that share a vertex
 * are not compared (they meet there by construction).
 */
function selfCrossing(tris: Float64Array, vid: Uint32Array): { t: number; u: number; at: Float64Array } | null {
  const n = tris.length / 9;
  const b = meshBounds(tris);
  const eps = 1e-12 * Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
  const g = Math.max(1, Math.min(128, Math.round(Math.cbrt(n))));
  const size = [0, 1, 2].map((a) => Math.max(b.max[a] - b.min[a], eps) / g);
  const cellOf = (x: number, a: number) => Math.min(g - 1, Math.max(0, Math.floor((x - b.min[a]) / size[a])));
  const bins = new Map<number, number[]>();
  const boxes: number[][] = [];
  for (let t = 0; t < n; t++) {
    const bx = triBox(tris, t);
    boxes.push(bx);
    for (let k = cellOf(bx[2] - eps, 2); k <= cellOf(bx[5] + eps, 2); k++)
      for (let j = cellOf(bx[1] - eps, 1); j <= cellOf(bx[4] + eps, 1); j++)
        for (let i = cellOf(bx[0] - eps, 0); i <= cellOf(bx[3] + eps, 0); i++) {
          const key = i + g * (j + g * k);
          let list = bins.get(key);
          if (!list) bins.set(key, (list = []));
          list.push(t);
        }
  }
  const out = new Float64Array(3);
  const shares = (t: number, u: number) => [0, 1, 2].some((e) => vid[3 * u + e] === vid[3 * t] || vid[3 * u + e] === vid[3 * t + 1] || vid[3 * u + e] === vid[3 * t + 2]);
  const apart = (p: number[], q: number[]) => p[0] > q[3] + eps || q[0] > p[3] + eps || p[1] > q[4] + eps || q[1] > p[4] + eps || p[2] > q[5] + eps || q[2] > p[5] + eps;
  for (const list of bins.values()) {
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const t = list[x], u = list[y];
        if (apart(boxes[t], boxes[u]) || shares(t, u)) continue;
        if (trianglesIntersect(tris, 9 * t, tris, 9 * u, eps, out)) return { t: Math.min(t, u), u: Math.max(t, u), at: out };
      }
    }
  }
  return null;
}

/** A named body mesh for the placement checks. */
export interface NamedMesh {
  name: string;
  tris: Float64Array;
}

/** Problems of the placement of the bodies in the box: errors stop a run, warnings do not. */
export interface PlacementIssues {
  errors: string[];
  warnings: string[];
}

/**
 * Placement of the bodies in the box [0, L] (L = cells x cellSize on each axis): an error when a body leaves
 * the box (tolerance 1e-9 L), touches or crosses a face whose `inflowFaces` flag is set (FACES order: xmin,
 * xmax, ymin, ymax, zmin, zmax; molecules are injected there), or when two bodies overlap or touch (their
 * triangles intersect or one lies inside the other); a warning when a body is thinner than a cell along an axis.
 */
export function bodyPlacementIssues(
  meshes: NamedMesh[],
  domain: readonly [number, number, number],
  cells: readonly [number, number, number],
  cellSize: readonly [number, number, number],
  inflowFaces: readonly boolean[],
): PlacementIssues {
  const errors: string[] = [];
  const warnings: string[] = [];
  const bounds = meshes.map((m) => meshBounds(m.tris));
  const axes = ['x', 'y', 'z'];
  meshes.forEach((m, i) => {
    const b = bounds[i];
    if (m.tris.length < 9) {
      errors.push(`body "${m.name}" has no triangles; use an STL file that holds the body's closed surface`);
      return;
    }
    for (let a = 0; a < 3; a++) {
      const L = domain[a];
      const tol = 1e-9 * L;
      const range = `${axes[a]} from ${fmt(b.min[a])} to ${fmt(b.max[a])} m`;
      const lowOut = b.min[a] < -tol, highOut = b.max[a] > L + tol;
      const lowInflow = inflowFaces[2 * a] && b.min[a] <= tol, highInflow = inflowFaces[2 * a + 1] && b.max[a] >= L - tol;
      if ((lowOut && !lowInflow) || (highOut && !highInflow)) {
        errors.push(`body "${m.name}" leaves the box: it spans ${range}, the box ${axes[a]} from 0 to ${fmt(L)} m; move or shrink it: set the shape's position and size so it lies inside the box`);
      }
      for (const [hit, face, out] of [[lowInflow, FACES[2 * a], lowOut], [highInflow, FACES[2 * a + 1], highOut]] as const) {
        if (hit) {
          errors.push(
            `body "${m.name}" ${out ? 'crosses' : 'touches'} the inflow face ${face} (it spans ${range}): molecules are injected there; keep the body clear of the face: set the shape's position, or use another boundary type on ${face}`,
          );
        }
      }
      const extent = b.max[a] - b.min[a];
      if (extent < cellSize[a]) {
        warnings.push(
          `body "${m.name}" is ${fmt(extent)} m thick along ${axes[a]}, thinner than a cell (${fmt(cellSize[a])} m of ${cells[a]} cells): ` +
            'the cells cut by it resolve it poorly; refine the grid or check the body\'s size',
        );
      }
    }
  });
  for (let i = 0; i < meshes.length; i++) {
    for (let j = i + 1; j < meshes.length; j++) {
      if (meshes[i].tris.length < 9 || meshes[j].tris.length < 9) continue;
      const why = overlap(meshes[i].tris, bounds[i], meshes[j].tris, bounds[j]);
      if (why) errors.push(`bodies "${meshes[i].name}" and "${meshes[j].name}" overlap: ${why}; move them apart: set their shapes' positions so they neither touch nor intersect`);
    }
  }
  return { errors, warnings };
}

// Why two meshes overlap or touch ("their surfaces intersect near (x, y, z)", "... lies inside ..."), or null.
function overlap(ta: Float64Array, ba: MeshBounds, tb: Float64Array, bb: MeshBounds): string | null {
  const diag = Math.max(
    Math.hypot(ba.max[0] - ba.min[0], ba.max[1] - ba.min[1], ba.max[2] - ba.min[2]),
    Math.hypot(bb.max[0] - bb.min[0], bb.max[1] - bb.min[1], bb.max[2] - bb.min[2]),
  );
  const eps = 1e-12 * diag;
  const lo = [0, 1, 2].map((a) => Math.max(ba.min[a], bb.min[a]) - eps);
  const hi = [0, 1, 2].map((a) => Math.min(ba.max[a], bb.max[a]) + eps);
  if (lo.some((x, a) => x > hi[a])) return null;
  const hit = surfacesIntersect(ta, tb, lo, hi, eps);
  if (hit) return `their surfaces intersect or touch near ${point(hit, 0)}`;
  // no crossing surfaces: either disjoint or one wholly inside the other
  if (pointInMesh(ta, 0, tb)) return `the first lies inside the second`;
  if (pointInMesh(tb, 0, ta)) return `the second lies inside the first`;
  return null;
}

// Bounds of triangle t as [minx, miny, minz, maxx, maxy, maxz].
function triBox(tris: Float64Array, t: number): number[] {
  const p = 9 * t;
  const out = [tris[p], tris[p + 1], tris[p + 2], tris[p], tris[p + 1], tris[p + 2]];
  for (let v = 1; v < 3; v++) {
    for (let a = 0; a < 3; a++) {
      const x = tris[p + 3 * v + a];
      if (x < out[a]) out[a] = x;
      if (x > out[3 + a]) out[3 + a] = x;
    }
  }
  return out;
}

// A point where a triangle of `ta` meets one of `tb` inside the box [lo, hi], or null. Uses a uniform grid of
// tb's triangles over the box so large meshes are not compared pairwise.
function surfacesIntersect(ta: Float64Array, tb: Float64Array, lo: number[], hi: number[], eps: number): Float64Array | null {
  const inBox = (bx: number[]) => bx[0] <= hi[0] && bx[3] >= lo[0] && bx[1] <= hi[1] && bx[4] >= lo[1] && bx[2] <= hi[2] && bx[5] >= lo[2];
  const candA: number[] = [];
  const boxesB: number[][] = [];
  const candB: number[] = [];
  for (let t = 0; t < ta.length / 9; t++) if (inBox(triBox(ta, t))) candA.push(t);
  for (let t = 0; t < tb.length / 9; t++) {
    const bx = triBox(tb, t);
    if (inBox(bx)) {
      candB.push(t);
      boxesB.push(bx);
    }
  }
  if (candA.length === 0 || candB.length === 0) return null;
  const g = Math.max(1, Math.min(64, Math.round(Math.cbrt(candB.length))));
  const size = [0, 1, 2].map((a) => Math.max(hi[a] - lo[a], eps) / g);
  const cellOf = (x: number, a: number) => Math.min(g - 1, Math.max(0, Math.floor((x - lo[a]) / size[a])));
  const bins: number[][] = Array.from({ length: g * g * g }, () => []);
  candB.forEach((t, m) => {
    const bx = boxesB[m];
    for (let k = cellOf(bx[2], 2); k <= cellOf(bx[5], 2); k++)
      for (let j = cellOf(bx[1], 1); j <= cellOf(bx[4], 1); j++)
        for (let i = cellOf(bx[0], 0); i <= cellOf(bx[3], 0); i++) bins[i + g * (j + g * k)].push(t);
  });
  const stamp = new Int32Array(tb.length / 9).fill(-1);
  const out = new Float64Array(3);
  for (const t of candA) {
    const bx = triBox(ta, t);
    for (let k = cellOf(bx[2], 2); k <= cellOf(bx[5], 2); k++)
      for (let j = cellOf(bx[1], 1); j <= cellOf(bx[4], 1); j++)
        for (let i = cellOf(bx[0], 0); i <= cellOf(bx[3], 0); i++) {
          for (const u of bins[i + g * (j + g * k)]) {
            if (stamp[u] === t) continue;
            stamp[u] = t;
            if (trianglesIntersect(ta, 9 * t, tb, 9 * u, eps, out)) return out;
          }
        }
  }
  return null;
}

// True when the vertex at index p of `src` lies inside the closed mesh `tris` (parity of the crossings of a
// ray in a fixed direction with no special alignment, so it almost never meets an edge).
function pointInMesh(src: Float64Array, p: number, tris: Float64Array): boolean {
  const ox = src[p], oy = src[p + 1], oz = src[p + 2];
  const dx = 0.8017837257372732, dy = 0.5345224838248488 * Math.SQRT1_2 + 0.1, dz = 0.2672612419124244 + Math.SQRT2 * 0.01;
  let crossings = 0;
  for (let q = 0; q + 8 < tris.length; q += 9) {
    // Moller-Trumbore
    const e1x = tris[q + 3] - tris[q], e1y = tris[q + 4] - tris[q + 1], e1z = tris[q + 5] - tris[q + 2];
    const e2x = tris[q + 6] - tris[q], e2y = tris[q + 7] - tris[q + 1], e2z = tris[q + 8] - tris[q + 2];
    const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
    const det = e1x * px + e1y * py + e1z * pz;
    if (det === 0) continue;
    const inv = 1 / det;
    const sx = ox - tris[q], sy = oy - tris[q + 1], sz = oz - tris[q + 2];
    const u = (sx * px + sy * py + sz * pz) * inv;
    if (u < 0 || u > 1) continue;
    const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
    const v = (dx * qx + dy * qy + dz * qz) * inv;
    if (v < 0 || u + v > 1) continue;
    const dist = (e2x * qx + e2y * qy + e2z * qz) * inv;
    if (dist > 0) crossings++;
  }
  return crossings % 2 === 1;
}
