// Whether two triangles meet (closed triangles, within a distance eps): the test behind the mesh checks' "surface passes
// through itself" and "shells cross". Two triangles meet exactly when an edge of one meets the other; an edge lying in
// the other's plane is tested in 2-D, and one on the line of an edge (faces cut into facets put points on a slanted
// line only to round-off) meets it only where the two overlap along that line.

// True when triangle A (at index pa of ta) and triangle B (pb of tb) share a point (closed triangles, within
// eps); the point goes to `out`. Two triangles meet exactly when an edge of one meets the other.
export function trianglesIntersect(ta: Float64Array, pa: number, tb: Float64Array, pb: number, eps: number, out: Float64Array): boolean {
  for (let e = 0; e < 3; e++) {
    if (segmentTriangle(ta, pa + 3 * e, pa + 3 * ((e + 1) % 3), tb, pb, eps, out)) return true;
    if (segmentTriangle(tb, pb + 3 * e, pb + 3 * ((e + 1) % 3), ta, pa, eps, out)) return true;
  }
  return false;
}

// True when the segment from vertex p to vertex q (indices into s) meets the closed triangle at index pt of
// t (within eps); the meeting point goes to `out`.
function segmentTriangle(s: Float64Array, p: number, q: number, t: Float64Array, pt: number, eps: number, out: Float64Array): boolean {
  const ax = t[pt], ay = t[pt + 1], az = t[pt + 2];
  const e1x = t[pt + 3] - ax, e1y = t[pt + 4] - ay, e1z = t[pt + 5] - az;
  const e2x = t[pt + 6] - ax, e2y = t[pt + 7] - ay, e2z = t[pt + 8] - az;
  let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const nl = Math.hypot(nx, ny, nz);
  if (!(nl > 0)) return false;
  nx /= nl; ny /= nl; nz /= nl;
  let dp = (s[p] - ax) * nx + (s[p + 1] - ay) * ny + (s[p + 2] - az) * nz;
  let dq = (s[q] - ax) * nx + (s[q + 1] - ay) * ny + (s[q + 2] - az) * nz;
  if (Math.abs(dp) <= eps) dp = 0;
  if (Math.abs(dq) <= eps) dq = 0;
  if ((dp > 0 && dq > 0) || (dp < 0 && dq < 0)) return false;
  if (dp === 0 && dq === 0) return coplanarSegmentTriangle(s, p, q, t, pt, [nx, ny, nz], eps, out);
  const f = dp / (dp - dq);
  const x = s[p] + f * (s[q] - s[p]), y = s[p + 1] + f * (s[q + 1] - s[p + 1]), z = s[p + 2] + f * (s[q + 2] - s[p + 2]);
  if (!pointInTriangle(x, y, z, t, pt, [nx, ny, nz], eps)) return false;
  out[0] = x; out[1] = y; out[2] = z;
  return true;
}

// True when (x, y, z), in the triangle's plane, lies in the closed triangle at index pt of t (within eps).
function pointInTriangle(x: number, y: number, z: number, t: Float64Array, pt: number, n: number[], eps: number): boolean {
  for (let e = 0; e < 3; e++) {
    const a = pt + 3 * e, b = pt + 3 * ((e + 1) % 3);
    const ex = t[b] - t[a], ey = t[b + 1] - t[a + 1], ez = t[b + 2] - t[a + 2];
    const px = x - t[a], py = y - t[a + 1], pz = z - t[a + 2];
    // (e x p) . n / |e|: signed distance of the point inside the edge
    const c = (ey * pz - ez * py) * n[0] + (ez * px - ex * pz) * n[1] + (ex * py - ey * px) * n[2];
    if (c < -eps * Math.hypot(ex, ey, ez)) return false;
  }
  return true;
}

// Coplanar case: the segment meets the triangle when an end lies in it or it crosses one of its edges
// (in the 2D projection along the normal's largest component).
function coplanarSegmentTriangle(s: Float64Array, p: number, q: number, t: Float64Array, pt: number, n: number[], eps: number, out: Float64Array): boolean {
  for (const v of [p, q]) {
    if (pointInTriangle(s[v], s[v + 1], s[v + 2], t, pt, n, eps)) {
      out[0] = s[v]; out[1] = s[v + 1]; out[2] = s[v + 2];
      return true;
    }
  }
  const drop = Math.abs(n[0]) > Math.abs(n[1]) ? (Math.abs(n[0]) > Math.abs(n[2]) ? 0 : 2) : Math.abs(n[1]) > Math.abs(n[2]) ? 1 : 2;
  const u = (drop + 1) % 3, w = (drop + 2) % 3;
  const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const len = Math.hypot(s[q + u] - s[p + u], s[q + w] - s[p + w]);
  for (let e = 0; e < 3; e++) {
    const a = pt + 3 * e, b = pt + 3 * ((e + 1) % 3);
    const o1 = orient(s[p + u], s[p + w], s[q + u], s[q + w], t[a + u], t[a + w]);
    const o2 = orient(s[p + u], s[p + w], s[q + u], s[q + w], t[b + u], t[b + w]);
    // an edge on the segment's line (within eps: a face cut into facets puts points on a slanted line only to
    // round-off) meets it only where the two overlap along the line, not wherever the rounded signs say
    if (Math.abs(o1) <= eps * len && Math.abs(o2) <= eps * len) {
      if (collinearOverlap(s, p, q, t, a, b, u, w, eps, out)) return true;
      continue;
    }
    const o3 = orient(t[a + u], t[a + w], t[b + u], t[b + w], s[p + u], s[p + w]);
    const o4 = orient(t[a + u], t[a + w], t[b + u], t[b + w], s[q + u], s[q + w]);
    if (o1 * o2 <= 0 && o3 * o4 <= 0) {
      const f = o1 / (o1 - o2);
      for (let c = 0; c < 3; c++) out[c] = t[a + c] + f * (t[b + c] - t[a + c]);
      return true;
    }
  }
  return false;
}

// True when the edge a-b (indices into t), on the line of the segment p-q (indices into s), overlaps it by more than
// eps along that line (u, w: the projected plane's axes); the middle of the overlap goes to `out`.
function collinearOverlap(s: Float64Array, p: number, q: number, t: Float64Array, a: number, b: number, u: number, w: number, eps: number, out: Float64Array): boolean {
  const du = s[q + u] - s[p + u], dw = s[q + w] - s[p + w];
  const len = Math.hypot(du, dw);
  if (!(len > 0)) return false;
  const along = (v: number) => ((t[v + u] - s[p + u]) * du + (t[v + w] - s[p + w]) * dw) / len;
  const lo = Math.max(0, Math.min(along(a), along(b))), hi = Math.min(len, Math.max(along(a), along(b)));
  if (!(hi - lo > eps)) return false;
  const f = (lo + hi) / 2 / len;
  for (let c = 0; c < 3; c++) out[c] = s[p + c] + f * (s[q + c] - s[p + c]);
  return true;
}
