// Sampled fields as a VTK XML ImageData file (.vti) that ParaView opens directly: the grid's cells as
// image cells (Origin 0, Spacing = cell size), one Float64 cell array per field plus <field>_stderr
// arrays (batch-means standard errors), and the velocity as a 3-component vector "u".
// Arrays are inline binary: base64 of a UInt64 byte count followed by the little-endian data, encoded as
// one stream (VTK's uncompressed inline layout). With bodies in the flow, optional cell marks add
// `cellKind` (0 gas, 1 cut by a body surface, 2 inside a body) and `volumeFraction` (gas fraction).
import { FIELD_NAMES, fieldInfo, fieldNamesOf } from '../common/field-names.js';
import type { FieldSet } from '../common/run-record.js';
import { escapeHtml } from './html-escape.js';

/** Base64 of a UInt64 little-endian byte-count header followed by the bytes of `data`. */
export function vtkBinaryBase64(data: Float64Array): string {
  const bytes = new Uint8Array(8 + data.byteLength);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(data.byteLength), true);
  const view = new DataView(bytes.buffer, 8);
  for (let i = 0; i < data.length; i++) view.setFloat64(8 * i, data[i], true);
  return Buffer.from(bytes).toString('base64');
}

/** One <DataArray> element of Float64 values (the name escaped: a species field carries its species' name). */
function dataArray(name: string, data: Float64Array, components = 1): string {
  return `        <DataArray type="Float64" Name="${escapeHtml(name)}" NumberOfComponents="${components}" format="binary">\n` +
    `          ${vtkBinaryBase64(data)}\n        </DataArray>\n`;
}

/** ux, uy, uz interleaved as one 3-component array. */
function velocityVectors(f: FieldSet): Float64Array {
  const n = f.values.ux.length;
  const out = new Float64Array(3 * n);
  for (let c = 0; c < n; c++) {
    out[3 * c] = f.values.ux[c];
    out[3 * c + 1] = f.values.uy[c];
    out[3 * c + 2] = f.values.uz[c];
  }
  return out;
}

/** Per-cell marks of the grid with bodies: kind (0 gas, 1 cut, 2 inside a body) and gas volume fraction. */
export interface CellMarks {
  kind: Uint8Array;
  volumeFraction: Float64Array;
}

/**
 * The .vti document of a field set (samples and blocks go into FieldData); with `cellMarks`, two more
 * cell arrays `cellKind` (as Float64) and `volumeFraction`.
 */
export function fieldsToVti(f: FieldSet, cellMarks?: CellMarks): string {
  const [nx, ny, nz] = f.cells;
  const nCells = nx * ny * nz;
  // every run's fields, and the internal temperatures where the run has them
  const names = fieldNamesOf(f.values);
  for (const name of new Set([...FIELD_NAMES, ...names])) {
    if (f.values[name]?.length !== nCells || f.errors[name]?.length !== nCells) {
      throw new Error(`field ${name} has ${f.values[name]?.length ?? 0} values for ${nCells} cells; the stored fields are damaged`);
    }
  }
  if (cellMarks && (cellMarks.kind.length !== nCells || cellMarks.volumeFraction.length !== nCells)) {
    throw new Error(`cell marks have ${cellMarks.kind.length} kinds and ${cellMarks.volumeFraction.length} volume fractions for ${nCells} cells; the body marks do not match the grid`);
  }
  const extent = `0 ${nx} 0 ${ny} 0 ${nz}`;
  let arrays = '';
  for (const name of names) arrays += dataArray(name, f.values[name]!);
  for (const name of names) arrays += dataArray(`${name}_stderr`, f.errors[name]!);
  arrays += dataArray('u', velocityVectors(f), 3);
  if (cellMarks) {
    arrays += dataArray('cellKind', Float64Array.from(cellMarks.kind));
    arrays += dataArray('volumeFraction', cellMarks.volumeFraction);
  }
  // inside an XML comment: no "--" may come from a species name
  const units = names.map((n) => `${n} [${fieldInfo(n).unit}]`).join(', ').replaceAll('--', '- -');
  return '<?xml version="1.0"?>\n' +
    `<!-- DSMC sampled fields: ${units}; <field>_stderr = batch-means standard error; ${f.samples} samples in ${f.blocks} blocks -->\n` +
    '<VTKFile type="ImageData" version="1.0" byte_order="LittleEndian" header_type="UInt64">\n' +
    `  <ImageData WholeExtent="${extent}" Origin="0 0 0" Spacing="${f.cellSize.join(' ')}">\n` +
    '    <FieldData>\n' +
    `      <DataArray type="Float64" Name="samples" NumberOfTuples="1" format="ascii">${f.samples}</DataArray>\n` +
    `      <DataArray type="Float64" Name="blocks" NumberOfTuples="1" format="ascii">${f.blocks}</DataArray>\n` +
    '    </FieldData>\n' +
    `    <Piece Extent="${extent}">\n` +
    '      <PointData>\n      </PointData>\n' +
    '      <CellData Scalars="n" Vectors="u">\n' + arrays + '      </CellData>\n' +
    '    </Piece>\n  </ImageData>\n</VTKFile>\n';
}
