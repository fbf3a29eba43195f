// Crossings of lines along x with a mesh's triangles, for the gas volumes of cut cells (cell-table.ts): the exact
// crossing test (shared edges counted once), the binning of a column's triangles by the lines they may cross, and
// the sorting of the crossings along a line.

// Side of the point (y, z) relative to the directed edge a -> b in the y-z plane. The edge is always evaluated
// in one canonical direction so the two triangles sharing it get exactly opposite answers (a line through a
// shared edge then crosses exactly one of them); a point on the edge counts as left of the canonical direction.
function leftOf(ya: number, za: number, yb: number, zb: number, y: number, z: number): boolean {
  if (ya < yb || (ya === yb && za < zb)) return (yb - ya) * (z - za) - (zb - za) * (y - ya) >= 0;
  return (ya - yb) * (z - zb) - (za - zb) * (y - yb) < 0;
}

// Crossings of the line {(x, y, z): x real} with the triangles `ids[from..to)`, written unsorted to `out`;
// returns their count. Triangles parallel to x are never crossed.
export function lineCrossings(tris: Float64Array, ids: Uint32Array, from: number, to: number, y: number, z: number, out: Float64Array): number {
  let m = 0;
  for (let e = from; e < to; e++) {
    const p = 9 * ids[e];
    const y0 = tris[p + 1], z0 = tris[p + 2], y1 = tris[p + 4], z1 = tris[p + 5], y2 = tris[p + 7], z2 = tris[p + 8];
    const s0 = leftOf(y0, z0, y1, z1, y, z);
    if (leftOf(y1, z1, y2, z2, y, z) !== s0 || leftOf(y2, z2, y0, z0, y, z) !== s0) continue;
    const x0 = tris[p], x1 = tris[p + 3], x2 = tris[p + 6];
    const ay = y1 - y0, az = z1 - z0, by = y2 - y0, bz = z2 - z0;
    const nx = ay * bz - az * by;
    if (nx === 0) continue;
    const ny = az * (x2 - x0) - (x1 - x0) * bz, nz = (x1 - x0) * by - ay * (x2 - x0);
    let x = x0 - (ny * (y - y0) + nz * (z - z0)) / nx;
    x = Math.min(Math.max(x, Math.min(x0, x1, x2)), Math.max(x0, x1, x2));
    out[m++] = x;
  }
  return m;
}

// The triangles of a column (ids[from..to)) binned by the N x N lines along x they may cross: line (a, b) at
// y = y0 + (a + 0.5) dy / N, z = z0 + (b + 0.5) dz / N gets every triangle whose y-z bounds (widened by one line)
// hold it, so lineCrossings over a bin finds exactly the crossings it finds over the whole column, at a fraction of
// the cost for fine meshes (issue 25 item 7). CSR: bin a * N + b is list[start[a N + b] .. start[a N + b + 1]).
export function lineBins(tris: Float64Array, ids: Uint32Array, from: number, to: number, N: number, y0: number, z0: number, dy: number, dz: number): { start: Int32Array; list: Uint32Array } {
  const range = (lo: number, hi: number, o: number, d: number): [number, number] =>
    [Math.max(0, Math.ceil(((lo - o) / d) * N - 0.5) - 1), Math.min(N - 1, Math.floor(((hi - o) / d) * N - 0.5) + 1)];
  const spans = new Int32Array(4 * (to - from));
  const count = new Int32Array(N * N + 1);
  for (let e = from; e < to; e++) {
    const p = 9 * ids[e];
    const [a0, a1] = range(Math.min(tris[p + 1], tris[p + 4], tris[p + 7]), Math.max(tris[p + 1], tris[p + 4], tris[p + 7]), y0, dy);
    const [b0, b1] = range(Math.min(tris[p + 2], tris[p + 5], tris[p + 8]), Math.max(tris[p + 2], tris[p + 5], tris[p + 8]), z0, dz);
    spans.set([a0, a1, b0, b1], 4 * (e - from));
    for (let a = a0; a <= a1; a++) for (let b = b0; b <= b1; b++) count[a * N + b + 1]++;
  }
  for (let i = 0; i < N * N; i++) count[i + 1] += count[i];
  const list = new Uint32Array(count[N * N]);
  const fill = count.slice(0, N * N);
  for (let e = from; e < to; e++) {
    const [a0, a1, b0, b1] = spans.subarray(4 * (e - from), 4 * (e - from) + 4);
    for (let a = a0; a <= a1; a++) for (let b = b0; b <= b1; b++) list[fill[a * N + b]++] = ids[e];
  }
  return { start: count, list };
}

// Sorts the first m crossings and drops the last one when their count is odd (an open surface).
export function sortCrossings(xs: Float64Array, m: number): number {
  if (m > 24) xs.subarray(0, m).sort();
  else {
    for (let a = 1; a < m; a++) {
      const v = xs[a];
      let b = a - 1;
      while (b >= 0 && xs[b] > v) { xs[b + 1] = xs[b]; b--; }
      xs[b + 1] = v;
    }
  }
  return m % 2 === 0 ? m : m - 1;
}
