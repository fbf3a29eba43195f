// Integral properties of a triangle mesh (9 numbers per triangle, counter-clockwise seen from outside):
// areas, unit normals, centroids, enclosed volume and its centroid, projected (frontal) area, bounds.

/** Axis-aligned bounds of a mesh. */
export interface MeshBounds {
  min: [number, number, number];
  max: [number, number, number];
}

// Area of each triangle, m^2.
export function triangleAreas(tris: Float64Array): Float64Array {
  const n = Math.floor(tris.length / 9);
  const out = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const [x, y, z] = cross(tris, 9 * t);
    out[t] = 0.5 * Math.hypot(x, y, z);
  }
  return out;
}

// Unit outward normal of each triangle (3 per triangle; 0, 0, 0 for a triangle of zero area).
export function triangleNormals(tris: Float64Array): Float64Array {
  const n = Math.floor(tris.length / 9);
  const out = new Float64Array(3 * n);
  for (let t = 0; t < n; t++) {
    const [x, y, z] = cross(tris, 9 * t);
    const l = Math.hypot(x, y, z);
    if (l > 0) {
      out[3 * t] = x / l;
      out[3 * t + 1] = y / l;
      out[3 * t + 2] = z / l;
    }
  }
  return out;
}

// Centroid of each triangle (3 per triangle).
export function triangleCentroids(tris: Float64Array): Float64Array {
  const n = Math.floor(tris.length / 9);
  const out = new Float64Array(3 * n);
  for (let t = 0; t < n; t++) {
    for (let a = 0; a < 3; a++) out[3 * t + a] = (tris[9 * t + a] + tris[9 * t + 3 + a] + tris[9 * t + 6 + a]) / 3;
  }
  return out;
}

// Bounds of all vertices (min > max, both infinite, for an empty mesh).
export function meshBounds(tris: Float64Array): MeshBounds {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let p = 0; p + 2 < tris.length; p += 3) {
    for (let a = 0; a < 3; a++) {
      const x = tris[p + a];
      if (x < min[a]) min[a] = x;
      if (x > max[a]) max[a] = x;
    }
  }
  return { min, max };
}

// Signed volume enclosed by the mesh, m^3 (> 0 for outward normals): sum of the tetrahedra from a
// reference point (the bounds' center, to limit cancellation far from the origin).
export function meshVolume(tris: Float64Array): number {
  return volumeAndMoment(tris).volume;
}

// Centroid of the enclosed volume; the area-weighted centroid of the surface when the volume is 0.
export function meshCentroid(tris: Float64Array): [number, number, number] {
  const { volume, moment, ref } = volumeAndMoment(tris);
  if (volume !== 0) return [ref[0] + moment[0] / volume, ref[1] + moment[1] / volume, ref[2] + moment[2] / volume];
  const areas = triangleAreas(tris);
  const cents = triangleCentroids(tris);
  const c: [number, number, number] = [0, 0, 0];
  let total = 0;
  for (let t = 0; t < areas.length; t++) {
    total += areas[t];
    for (let a = 0; a < 3; a++) c[a] += areas[t] * cents[3 * t + a];
  }
  return total > 0 ? [c[0] / total, c[1] / total, c[2] / total] : [NaN, NaN, NaN];
}

/**
 * Area the body shows to a flow along `direction` (any length): the sum over triangles facing the oncoming
 * flow (n . dir < 0) of A |n . dir|. Exact for convex bodies; a non-convex body's parts that hide behind
 * others are counted again, so it overestimates there.
 */
export function projectedArea(tris: Float64Array, direction: readonly [number, number, number]): number {
  const l = Math.hypot(direction[0], direction[1], direction[2]);
  if (!(l > 0)) throw new Error('projectedArea: the direction has zero length');
  const d = [direction[0] / l, direction[1] / l, direction[2] / l];
  let sum = 0;
  for (let p = 0; p + 8 < tris.length; p += 9) {
    const [x, y, z] = cross(tris, p);
    const s = x * d[0] + y * d[1] + z * d[2];
    if (s < 0) sum -= 0.5 * s;
  }
  return sum;
}

// (v1 - v0) x (v2 - v0) of the triangle starting at index p (twice the area times the unit normal).
function cross(tris: Float64Array, p: number): [number, number, number] {
  const ax = tris[p + 3] - tris[p], ay = tris[p + 4] - tris[p + 1], az = tris[p + 5] - tris[p + 2];
  const bx = tris[p + 6] - tris[p], by = tris[p + 7] - tris[p + 1], bz = tris[p + 8] - tris[p + 2];
  return [ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx];
}

// Signed volume, first moment about `ref` (volume times centroid offset) and the reference point used.
function volumeAndMoment(tris: Float64Array): { volume: number; moment: [number, number, number]; ref: [number, number, number] } {
  const b = meshBounds(tris);
  const ref: [number, number, number] = tris.length >= 9 ? [0, 1, 2].map((a) => (b.min[a] + b.max[a]) / 2) as [number, number, number] : [0, 0, 0];
  let v6 = 0;
  const m: [number, number, number] = [0, 0, 0];
  for (let p = 0; p + 8 < tris.length; p += 9) {
    const ax = tris[p] - ref[0], ay = tris[p + 1] - ref[1], az = tris[p + 2] - ref[2];
    const bx = tris[p + 3] - ref[0], by = tris[p + 4] - ref[1], bz = tris[p + 5] - ref[2];
    const cx = tris[p + 6] - ref[0], cy = tris[p + 7] - ref[1], cz = tris[p + 8] - ref[2];
    const det = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
    v6 += det;
    m[0] += det * (ax + bx + cx);
    m[1] += det * (ay + by + cy);
    m[2] += det * (az + bz + cz);
  }
  // tetrahedron (ref, a, b, c): volume det/6, centroid offset (a + b + c)/4
  return { volume: v6 / 6, moment: [m[0] / 24, m[1] / 24, m[2] / 24], ref };
}
