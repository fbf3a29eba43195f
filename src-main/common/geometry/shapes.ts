// Triangle meshes of the body shapes of a case (box, wedge, cylinder, sphere, STL): 9 numbers per
// triangle (v0, v1, v2), counter-clockwise seen from outside, so (v1 - v0) x (v2 - v0) points into the gas.
import type { BodyShape } from '../body-schema.js';
import { boxTriangles, divisions, facetSize, prismTriangles, subdividePolygon } from './shape-facets.js';
import { MAX_BODY_TRIANGLES, parseStl, tooManyTrianglesError } from './stl.js';

type Vec3 = [number, number, number];

// Row-major 3x3 rotation matrix of [rx, ry, rz] degrees: about x, then y, then z (R = Rz Ry Rx).
export function rotationMatrix(deg: readonly [number, number, number]): number[] {
  const [a, b, c] = deg.map((d) => (d * Math.PI) / 180);
  const ca = Math.cos(a), sa = Math.sin(a), cb = Math.cos(b), sb = Math.sin(b), cc = Math.cos(c), sc = Math.sin(c);
  return [
    cc * cb, cc * sb * sa - sc * ca, cc * sb * ca + sc * sa,
    sc * cb, sc * sb * sa + cc * ca, sc * sb * ca - cc * sa,
    -sb, cb * sa, cb * ca,
  ];
}

// Rotates every vertex in place about `pivot` by `deg` (nothing when absent or all zero).
function rotateMesh(tris: Float64Array, deg: readonly [number, number, number] | undefined, pivot: Vec3): void {
  if (!deg || (deg[0] === 0 && deg[1] === 0 && deg[2] === 0)) return;
  const m = rotationMatrix(deg);
  for (let p = 0; p < tris.length; p += 3) {
    const x = tris[p] - pivot[0], y = tris[p + 1] - pivot[1], z = tris[p + 2] - pivot[2];
    tris[p] = pivot[0] + m[0] * x + m[1] * y + m[2] * z;
    tris[p + 1] = pivot[1] + m[3] * x + m[4] * y + m[5] * z;
    tris[p + 2] = pivot[2] + m[6] * x + m[7] * y + m[8] * z;
  }
}

// Mesh of indexed triangles: vertex coordinates (3 per vertex) and vertex ids (3 per triangle).
function expand(verts: ArrayLike<number>, faces: ArrayLike<number>): Float64Array {
  const out = new Float64Array(faces.length * 3);
  for (let f = 0; f < faces.length; f++) {
    const v = faces[f] * 3;
    out[3 * f] = verts[v];
    out[3 * f + 1] = verts[v + 1];
    out[3 * f + 2] = verts[v + 2];
  }
  return out;
}

// Axis-aligned box from min to max cut into n[a] pieces along each axis a: two triangles per quad of each face
// (12 triangles when n is [1, 1, 1]). A division's coordinate depends only on its axis and index, so the faces
// share their edge points exactly (watertight).
function boxMesh(min: Vec3, max: Vec3, n: [number, number, number] = [1, 1, 1]): Float64Array {
  const at = (a: number, i: number) => (i === 0 ? min[a] : i === n[a] ? max[a] : min[a] + ((max[a] - min[a]) * i) / n[a]);
  const out: number[] = [];
  for (let a = 0; a < 3; a++) {
    const u = (a + 1) % 3, v = (a + 2) % 3;
    for (let side = 0; side < 2; side++) {
      // quad (0,0) (1,0) (1,1) (0,1) in (u, v): its normal e_u x e_v = +e_a; reversed on the min side
      for (let iv = 0; iv < n[v]; iv++) {
        for (let iu = 0; iu < n[u]; iu++) {
          const corner = (bu: number, bv: number): number[] => {
            const p = [0, 0, 0];
            p[a] = side ? max[a] : min[a];
            p[u] = at(u, iu + bu);
            p[v] = at(v, iv + bv);
            return p;
          };
          let q = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
          if (side === 0) q = [q[0], q[3], q[2], q[1]];
          out.push(...q[0], ...q[1], ...q[2], ...q[0], ...q[2], ...q[3]);
        }
      }
    }
  }
  return Float64Array.from(out);
}

// Prism of a counter-clockwise (seen from +w) polygon in the (u, v) plane extruded along w from w0 to w1 in `rings`
// equal pieces: caps fanned from the polygon's center point `c` (which must see every edge), sides two triangles per
// edge and piece. `place(u, v, w)` maps local coordinates to the grid's.
function prismMesh(poly: number[], c: [number, number], w0: number, w1: number, place: (u: number, v: number, w: number) => Vec3, rings = 1): Float64Array {
  const n = poly.length / 2;
  const verts: number[] = [];
  for (let r = 0; r <= rings; r++) {
    const w = r === 0 ? w0 : r === rings ? w1 : w0 + ((w1 - w0) * r) / rings;
    for (let i = 0; i < n; i++) verts.push(...place(poly[2 * i], poly[2 * i + 1], w));
  }
  verts.push(...place(c[0], c[1], w0), ...place(c[0], c[1], w1));
  const b = (rings + 1) * n, t = b + 1, top = rings * n;
  const faces: number[] = [];
  for (let i = 0; i < n; i++) {
    const i1 = (i + 1) % n;
    faces.push(b, i1, i); // bottom cap, normal -w
    faces.push(t, top + i, top + i1); // top cap, normal +w
    for (let r = 0; r < rings; r++) {
      const lo = r * n, hi = (r + 1) * n;
      faces.push(lo + i, lo + i1, hi + i1, lo + i, hi + i1, hi + i); // side, normal outward of the polygon
    }
  }
  return expand(verts, faces);
}

// The wedge's cross-section (triangle apex, end of the flat or lower face, end of the inclined face, in x, y), its
// centroid and its span along z.
function wedgeOutline(shape: Extract<BodyShape, { type: 'wedge' }>, domain: Vec3): { poly: number[]; c: [number, number]; span: number } {
  const [ax, ay, az] = shape.apex;
  const L = shape.length;
  const span = shape.span ?? domain[2] - az;
  if (!(span > 0)) throw new Error(`wedge: the apex z (${az}) is at or above the top of the box (${domain[2]}); give a span`);
  const deg = Math.PI / 180;
  const lo = shape.symmetric ? -L * Math.tan((shape.angle / 2) * deg) : 0;
  const hi = shape.symmetric ? L * Math.tan((shape.angle / 2) * deg) : L * Math.tan(shape.angle * deg);
  const poly = [ax, ay, ax + L, ay + lo, ax + L, ay + hi];
  return { poly, c: [(poly[0] + poly[2] + poly[4]) / 3, (poly[1] + poly[3] + poly[5]) / 3], span };
}

// Wedge: a triangular prism with its sharp edge along z through the apex, extending `length` along +x, its faces cut
// into facets no longer than `h` (null: one facet per face).
function wedgeMesh(shape: Extract<BodyShape, { type: 'wedge' }>, domain: Vec3, h: number | null): Float64Array {
  const { poly, c, span } = wedgeOutline(shape, domain);
  const az = shape.apex[2];
  const tris = prismMesh(subdividePolygon(poly, h), c, az, az + span, (u, v, w) => [u, v, w], divisions(span, h));
  rotateMesh(tris, shape.rotate, [c[0], c[1], az + span / 2]);
  return tris;
}

// Unit vector of a cylinder axis ("x", "y", "z" or a direction vector).
function axisVector(axis: 'x' | 'y' | 'z' | readonly [number, number, number]): Vec3 {
  if (axis === 'x') return [1, 0, 0];
  if (axis === 'y') return [0, 1, 0];
  if (axis === 'z') return [0, 0, 1];
  const len = Math.hypot(axis[0], axis[1], axis[2]);
  if (!(len > 0) || !Number.isFinite(len)) throw new Error(`cylinder: the axis vector [${axis.join(', ')}] has no direction`);
  return [axis[0] / len, axis[1] / len, axis[2] / len];
}

// Length of a cylinder: given, or the box height for one along "z".
function cylinderLength(shape: Extract<BodyShape, { type: 'cylinder' }>, domain: Vec3): number {
  if (shape.length !== undefined) return shape.length;
  if (shape.axis !== 'z') throw new Error('cylinder: give a length (only a cylinder along "z" defaults to the box height)');
  return domain[2];
}

// Capped cylinder of `segments` facets around its axis, centered at `center`, cut into pieces no longer than `h`
// along the axis (null: one).
function cylinderMesh(shape: Extract<BodyShape, { type: 'cylinder' }>, domain: Vec3, h: number | null): Float64Array {
  const w = axisVector(shape.axis);
  const length = cylinderLength(shape, domain);
  // u, v complete w to a right-handed frame (u x v = w) so the polygon is counter-clockwise seen from +w
  const ref: Vec3 = Math.abs(w[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const d = ref[0] * w[0] + ref[1] * w[1] + ref[2] * w[2];
  const uRaw: Vec3 = [ref[0] - d * w[0], ref[1] - d * w[1], ref[2] - d * w[2]];
  const ul = Math.hypot(...uRaw);
  const u: Vec3 = [uRaw[0] / ul, uRaw[1] / ul, uRaw[2] / ul];
  const v: Vec3 = [w[1] * u[2] - w[2] * u[1], w[2] * u[0] - w[0] * u[2], w[0] * u[1] - w[1] * u[0]];
  const n = shape.segments;
  // The polygon's vertices lie on a circle of radius R > r chosen so that the polygon's AREA equals pi r^2
  // (n/2 R^2 sin(2 pi/n) = pi r^2): the faceted cylinder then has the exact volume pi r^2 L.
  const R = shape.radius * Math.sqrt((2 * Math.PI) / (n * Math.sin((2 * Math.PI) / n)));
  const poly: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    poly.push(R * Math.cos(t), R * Math.sin(t));
  }
  const [cx, cy, cz] = shape.center;
  return prismMesh(poly, [0, 0], -length / 2, length / 2, (a, b, c) => [
    cx + a * u[0] + b * v[0] + c * w[0],
    cy + a * u[1] + b * v[1] + c * w[1],
    cz + a * u[2] + b * v[2] + c * w[2],
  ], divisions(length, h));
}

// Icosahedron (12 vertices on the unit sphere, 20 faces counter-clockwise seen from outside).
function icosahedron(): { verts: number[]; faces: number[] } {
  const t = (1 + Math.sqrt(5)) / 2;
  const raw = [-1, t, 0, 1, t, 0, -1, -t, 0, 1, -t, 0, 0, -1, t, 0, 1, t, 0, -1, -t, 0, 1, -t, t, 0, -1, t, 0, 1, -t, 0, -1, -t, 0, 1];
  const s = Math.hypot(1, t);
  const verts = raw.map((x) => x / s);
  const faces = [
    0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
    3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1,
  ];
  return { verts, faces };
}

// Icosphere of radius r about `center`: 20 * 4^subdivisions triangles.
function sphereMesh(center: Vec3, r: number, subdivisions: number): Float64Array {
  let { verts, faces } = icosahedron();
  for (let s = 0; s < subdivisions; s++) {
    const mid = new Map<number, number>();
    const nv0 = verts.length / 3;
    // Midpoint of edge (a, b) projected on the unit sphere, shared by both triangles of the edge.
    const midpoint = (a: number, b: number): number => {
      const key = a < b ? a * nv0 + b : b * nv0 + a;
      let m = mid.get(key);
      if (m === undefined) {
        const x = verts[3 * a] + verts[3 * b], y = verts[3 * a + 1] + verts[3 * b + 1], z = verts[3 * a + 2] + verts[3 * b + 2];
        const l = Math.hypot(x, y, z);
        m = verts.length / 3;
        verts.push(x / l, y / l, z / l);
        mid.set(key, m);
      }
      return m;
    };
    const next: number[] = [];
    for (let f = 0; f < faces.length; f += 3) {
      const a = faces[f], b = faces[f + 1], c = faces[f + 2];
      const ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      next.push(a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca);
    }
    faces = next;
  }
  // Volume of the unit icosphere (sum of the tetrahedra from the center), then the vertices are placed on a
  // sphere of radius R > r chosen so that the MESH volume equals 4/3 pi r^3 (the inscribed mesh alone is smaller).
  let v1 = 0;
  for (let f = 0; f < faces.length; f += 3) {
    const a = 3 * faces[f], b = 3 * faces[f + 1], c = 3 * faces[f + 2];
    v1 += verts[a] * (verts[b + 1] * verts[c + 2] - verts[b + 2] * verts[c + 1])
      + verts[a + 1] * (verts[b + 2] * verts[c] - verts[b] * verts[c + 2])
      + verts[a + 2] * (verts[b] * verts[c + 1] - verts[b + 1] * verts[c]);
  }
  v1 /= 6;
  const R = r * Math.cbrt((4 * Math.PI) / 3 / v1);
  const placed = verts.map((x, i) => center[i % 3] + R * x);
  return expand(placed, faces);
}

// An STL body: parsed, scaled, rotated about the origin, then translated.
function stlMesh(shape: Extract<BodyShape, { type: 'stl' }>, stlBytes: Uint8Array | undefined): Float64Array {
  if (!stlBytes) throw new Error(`stl: the bytes of "${shape.file}" were not given`);
  const tris = parseStl(stlBytes);
  const s = shape.scale ?? 1;
  if (s !== 1) for (let i = 0; i < tris.length; i++) tris[i] *= s;
  rotateMesh(tris, shape.rotate, [0, 0, 0]);
  const t = shape.translate;
  if (t) for (let i = 0; i < tris.length; i++) tris[i] += t[i % 3];
  return tris;
}

/** Pieces of a box along each of its axes for the facet size h. */
function boxDivisions(shape: Extract<BodyShape, { type: 'box' }>, h: number | null): [number, number, number] {
  return [0, 1, 2].map((a) => divisions(shape.max[a] - shape.min[a], h)) as [number, number, number];
}

/**
 * Triangles of a built-in shape's mesh, counted from its parameters without meshing it (a sphere's grows as
 * 4^subdivisions, a box's, wedge's and cylinder's with the facet size: `resolution`, else the smallest of `cellSize`);
 * null for an STL file.
 */
export function shapeTriangleCount(shape: BodyShape, domain: [number, number, number], cellSize?: readonly number[]): number | null {
  switch (shape.type) {
    case 'stl': return null;
    case 'sphere': return 20 * 4 ** shape.subdivisions;
    case 'box': return boxTriangles(boxDivisions(shape, facetSize(shape, cellSize)));
    case 'wedge': {
      const h = facetSize(shape, cellSize);
      const { poly, span } = wedgeOutline(shape, domain);
      const boundary = [0, 1, 2].reduce((n, i) => n + divisions(Math.hypot(poly[2 * ((i + 1) % 3)] - poly[2 * i], poly[2 * ((i + 1) % 3) + 1] - poly[2 * i + 1]), h), 0);
      return prismTriangles(boundary, divisions(span, h));
    }
    case 'cylinder': return prismTriangles(shape.segments, divisions(cylinderLength(shape, domain), facetSize(shape, cellSize)));
  }
}

/**
 * The error when the built-in shapes of a case (before any STL is read) have more than MAX_BODY_TRIANGLES triangles
 * in all, naming the largest bodies; null when they fit. Checked before meshing, so a refusal is immediate.
 */
export function triangleBudgetIssue(bodies: { name: string; shape: BodyShape }[], domain: [number, number, number], cellSize?: readonly number[]): string | null {
  const counts = bodies.map((b) => ({ name: b.name, n: shapeTriangleCount(b.shape, domain, cellSize) ?? 0 }));
  const total = counts.reduce((s, c) => s + c.n, 0);
  if (total <= MAX_BODY_TRIANGLES) return null;
  const largest = [...counts].sort((a, b) => b.n - a.n).slice(0, 3).map((c) => `"${c.name}" ${c.n}`).join(', ');
  const faceted = bodies.some((b) => b.shape.type === 'box' || b.shape.type === 'wedge' || b.shape.type === 'cylinder');
  return `${tooManyTrianglesError(total, `the case's ${bodies.length} bod${bodies.length === 1 ? 'y' : 'ies'} (largest: ${largest})`, bodies.length === 1 ? 'has' : 'have').message}` +
    (faceted ? '; a box, wedge or cylinder gets fewer facets from a larger shape.resolution (the longest facet edge in m; default the grid\'s smallest cell size)' : '');
}

/**
 * Triangle mesh of a body shape, in grid coordinates. `domain` is [Lx, Ly, Lz] (for the defaults that reach
 * to the top of the box); `stlBytes` are the STL file's bytes for `type: "stl"`; `cellSize` the grid's cell size, from
 * which a box, wedge or cylinder without a `resolution` takes its facet size (absent: one facet per face). Throws
 * Error on bad input.
 */
export function tessellateShape(shape: BodyShape, domain: [number, number, number], stlBytes?: Uint8Array, cellSize?: readonly number[]): Float64Array {
  switch (shape.type) {
    case 'box': {
      if (![0, 1, 2].every((a) => shape.max[a] > shape.min[a])) {
        throw new Error(`box: max [${shape.max.join(', ')}] must exceed min [${shape.min.join(', ')}] on every axis`);
      }
      const tris = boxMesh(shape.min, shape.max, boxDivisions(shape, facetSize(shape, cellSize)));
      const c: Vec3 = [0, 1, 2].map((a) => (shape.min[a] + shape.max[a]) / 2) as Vec3;
      rotateMesh(tris, shape.rotate, c);
      return tris;
    }
    case 'wedge':
      return wedgeMesh(shape, domain, facetSize(shape, cellSize));
    case 'cylinder':
      return cylinderMesh(shape, domain, facetSize(shape, cellSize));
    case 'sphere':
      return sphereMesh(shape.center, shape.radius, shape.subdivisions);
    case 'stl':
      return stlMesh(shape, stlBytes);
  }
}
