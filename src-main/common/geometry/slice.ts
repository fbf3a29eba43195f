// Outline of a mesh in an axis-aligned plane, for drawing bodies over field heat maps.

/**
 * Segments where the plane `axis = coord` cuts the mesh: 4 numbers per segment (two points), each point in
 * the plane's two remaining coordinates in axis order (axis 0: y, z; axis 1: x, z; axis 2: x, y). A vertex
 * on the plane counts as above it, so a closed mesh gives closed outlines and faces lying in the plane add
 * nothing.
 */
export function sliceOutline(tris: Float64Array, axis: 0 | 1 | 2, coord: number): Float64Array {
  const u = axis === 0 ? 1 : 0, v = axis === 2 ? 1 : 2;
  const out: number[] = [];
  for (let p = 0; p + 8 < tris.length; p += 9) {
    const d = [tris[p + axis] - coord, tris[p + 3 + axis] - coord, tris[p + 6 + axis] - coord];
    const above = d.map((x) => x >= 0);
    if (above[0] === above[1] && above[1] === above[2]) continue;
    for (let e = 0; e < 3; e++) {
      const e1 = (e + 1) % 3;
      if (above[e] === above[e1]) continue;
      const a = p + 3 * e, b = p + 3 * e1;
      const f = d[e] / (d[e] - d[e1]);
      out.push(tris[a + u] + f * (tris[b + u] - tris[a + u]), tris[a + v] + f * (tris[b + v] - tris[a + v]));
    }
  }
  return Float64Array.from(out);
}
