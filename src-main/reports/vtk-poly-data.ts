// Surface results as a VTK XML PolyData file (.vtp) that ParaView opens directly: every triangle of the
// surface mesh as one polygon of its own three points (points are not shared between triangles, so
// cell values stay per triangle), a `body` cell array with the body index of each triangle, and one
// Float64 cell array per result (scalars or vectors). The layout follows what VTK 9's
// vtkXMLPolyDataWriter writes: header_type UInt64, Int64 connectivity and offsets (offsets hold the end
// of each polygon, one per polygon), arrays inline binary (base64 of a UInt64 byte count followed by
// the little-endian data, as in vtk-image-data.ts).
import { vtkBinaryBase64 } from './vtk-image-data.js';

/** A triangle surface: 9 coordinates (3 vertices x, y, z) per triangle and the body index of each. */
export interface SurfaceMesh {
  points: Float64Array;
  body: Int32Array;
}

/** One cell array: `components` values per triangle. */
export interface CellArray {
  name: string;
  data: Float64Array;
  components: number;
}

/** Base64 of a UInt64 little-endian byte-count header followed by `data` as little-endian Int64. */
export function vtkBinaryBase64Int64(data: ArrayLike<number>): string {
  const bytes = new Uint8Array(8 + 8 * data.length);
  const view = new DataView(bytes.buffer);
  view.setBigUint64(0, BigInt(8 * data.length), true);
  for (let i = 0; i < data.length; i++) view.setBigInt64(8 + 8 * i, BigInt(data[i]), true);
  return Buffer.from(bytes).toString('base64');
}

/** Escapes a string for an XML attribute value. */
function xmlAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Text that may stand inside an XML comment: no "--" and no trailing "-". */
function xmlComment(s: string): string {
  return s.replace(/--/g, '- -').replace(/--/g, '- -').replace(/-$/, '- ');
}

/** One <DataArray> element with inline binary data. */
function dataArray(type: 'Float64' | 'Int64', name: string, base64: string, components = 1): string {
  return `        <DataArray type="${type}" Name="${xmlAttr(name)}" NumberOfComponents="${components}" format="binary">\n` +
    `          ${base64}\n        </DataArray>\n`;
}

/**
 * The .vtp document of a triangle surface with per-triangle cell arrays; `comment` goes into an XML
 * comment at the top (units, sampling window). Throws naming the array whose length does not match.
 */
export function surfaceToVtp(mesh: SurfaceMesh, cellArrays: CellArray[], comment: string): string {
  if (mesh.points.length % 9 !== 0) {
    throw new Error(`surface mesh has ${mesh.points.length} coordinates, not 9 per triangle; the mesh is damaged`);
  }
  const nTri = mesh.points.length / 9;
  if (mesh.body.length !== nTri) {
    throw new Error(`surface mesh has ${mesh.body.length} body indices for ${nTri} triangles; the mesh is damaged`);
  }
  const names = new Set<string>(['body']);
  for (const a of cellArrays) {
    if (!(Number.isInteger(a.components) && a.components >= 1)) throw new Error(`cell array ${a.name}: components must be an integer >= 1, got ${a.components}`);
    if (a.data.length !== a.components * nTri) {
      throw new Error(`cell array ${a.name} has ${a.data.length} values, expected ${a.components * nTri} (${a.components} per triangle for ${nTri} triangles)`);
    }
    if (names.has(a.name)) throw new Error(`cell array name ${a.name} is used twice (or is the reserved "body")`);
    names.add(a.name);
  }
  const nPts = 3 * nTri;
  const connectivity = new Float64Array(nPts);
  for (let i = 0; i < nPts; i++) connectivity[i] = i;
  const offsets = new Float64Array(nTri);
  for (let t = 0; t < nTri; t++) offsets[t] = 3 * (t + 1);
  let cells = dataArray('Int64', 'body', vtkBinaryBase64Int64(mesh.body));
  for (const a of cellArrays) cells += dataArray('Float64', a.name, vtkBinaryBase64(a.data), a.components);
  return '<?xml version="1.0"?>\n' +
    `<!-- ${xmlComment(comment)} -->\n` +
    '<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">\n' +
    '  <PolyData>\n' +
    `    <Piece NumberOfPoints="${nPts}" NumberOfVerts="0" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="${nTri}">\n` +
    '      <PointData>\n      </PointData>\n' +
    '      <CellData Scalars="body">\n' + cells + '      </CellData>\n' +
    '      <Points>\n' +
    dataArray('Float64', 'Points', vtkBinaryBase64(mesh.points), 3) +
    '      </Points>\n' +
    '      <Polys>\n' +
    dataArray('Int64', 'connectivity', vtkBinaryBase64Int64(connectivity)) +
    dataArray('Int64', 'offsets', vtkBinaryBase64Int64(offsets)) +
    '      </Polys>\n' +
    '    </Piece>\n  </PolyData>\n</VTKFile>\n';
}
