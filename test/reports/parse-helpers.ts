// Readers for the report tests: CSV sections (RFC 4180 quoting), the data-value cells of the HTML report,
// small VTK ImageData (.vti) and PolyData (.vtp) parsers for inline binary (UInt64 header) and ascii arrays, and a
// .zip reader (central directory, deflate by node:zlib) independent of the zip library the reports write with.
import { crc32 as zlibCrc32, inflateRawSync } from 'node:zlib';
import { expect } from 'vitest';

/** Rows of a CSV text (quoted cells may hold commas, quotes and newlines). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], cell = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(cell); cell = ''; }
    else if (ch === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; }
    else cell += ch;
  }
  if (cell !== '' || row.length > 0) { row.push(cell); rows.push(row); }
  return rows;
}

/** CSV sections by name: "# name" line, header row, data rows; sections end at an empty line. */
export function csvSections(text: string): Record<string, { header: string[]; rows: string[][] }> {
  const out: Record<string, { header: string[]; rows: string[][] }> = {};
  let current: { header: string[]; rows: string[][] } | null = null;
  for (const row of parseCsv(text)) {
    if (row.length === 1 && row[0] === '') { current = null; continue; }
    if (row.length === 1 && row[0].startsWith('# ')) { current = { header: [], rows: [] }; out[row[0].slice(2)] = current; continue; }
    if (!current) throw new Error(`CSV row outside a section: ${row.join(',')}`);
    if (current.header.length === 0) current.header = row;
    else current.rows.push(row);
  }
  return out;
}

/** The data-value of every HTML cell with a data-key attribute. */
export function htmlKeyedValues(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/data-key="([^"]+)" data-value="([^"]*)"/g)) out[m[1]] = m[2];
  return out;
}

/** The data-value numbers of the phase table row of `phase`, in column order. */
export function htmlPhaseRow(html: string, phase: string): string[] {
  const m = html.match(new RegExp(`<tr[^>]*data-phase="${phase}">(.*?)</tr>`));
  if (!m) throw new Error(`no phase row ${phase}`);
  return [...m[1].matchAll(/<td([^>]*)>/g)].map((x) => x[1].match(/data-value="([^"]*)"/)?.[1] ?? '');
}

/** An ImageData file read back: extents, spacing, origin and every cell array by name. */
export interface ParsedVti {
  wholeExtent: number[];
  spacing: number[];
  origin: number[];
  headerType: string;
  cellArrays: Record<string, { components: number; values: Float64Array }>;
  fieldData: Record<string, number[]>;
}

/** The attributes of an XML start tag as a map. */
function attrs(tag: string): Record<string, string> {
  return Object.fromEntries([...tag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

/** Decodes one inline binary DataArray body: base64 of a UInt64 byte count then little-endian Float64s. */
function decodeBinary(body: string): Float64Array {
  const bytes = Buffer.from(body.trim(), 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  if (n + 8 !== bytes.length) throw new Error(`header says ${n} bytes, found ${bytes.length - 8}`);
  const out = new Float64Array(n / 8);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(8 + 8 * i, true);
  return out;
}

/** Parses a .vti document written with inline binary or ascii Float64 arrays. */
export function parseVti(xml: string): ParsedVti {
  const file = xml.match(/<VTKFile([^>]*)>/);
  const image = xml.match(/<ImageData([^>]*)>/);
  if (!file || !image) throw new Error('not a VTK ImageData file');
  const fa = attrs(file[1]), ia = attrs(image[1]);
  if (fa.type !== 'ImageData' || fa.byte_order !== 'LittleEndian') throw new Error(`unexpected VTKFile ${file[1]}`);
  const nums = (s: string) => s.trim().split(/\s+/).map(Number);
  const readArrays = (section: string) => {
    const out: Record<string, { components: number; values: Float64Array; tuples?: number }> = {};
    for (const m of section.matchAll(/<DataArray([^>]*)>([\s\S]*?)<\/DataArray>/g)) {
      const a = attrs(m[1]);
      if (a.type !== 'Float64') throw new Error(`unexpected type ${a.type}`);
      const values = a.format === 'binary' ? decodeBinary(m[2]) : Float64Array.from(nums(m[2]));
      out[a.Name] = { components: Number(a.NumberOfComponents ?? 1), values };
    }
    return out;
  };
  const cell = xml.match(/<CellData[^>]*>([\s\S]*?)<\/CellData>/);
  const field = xml.match(/<FieldData>([\s\S]*?)<\/FieldData>/);
  const fieldData = Object.fromEntries(Object.entries(field ? readArrays(field[1]) : {}).map(([k, v]) => [k, [...v.values]]));
  return {
    wholeExtent: nums(ia.WholeExtent), spacing: nums(ia.Spacing), origin: nums(ia.Origin), headerType: fa.header_type,
    cellArrays: cell ? readArrays(cell[1]) : {}, fieldData,
  };
}

/** Decodes an inline binary array: UInt64 byte count, then little-endian Float64 or Int64 values. */
function decodeTyped(type: string, body: string): number[] {
  const bytes = Buffer.from(body.trim(), 'base64');
  const n = Number(bytes.readBigUInt64LE(0));
  expect(n + 8).toBe(bytes.length);
  const out: number[] = [];
  for (let o = 8; o < bytes.length; o += 8) out.push(type === 'Int64' ? Number(bytes.readBigInt64LE(o)) : bytes.readDoubleLE(o));
  return out;
}

export interface VtpArray { type: string; components: number; values: number[] }

/** Reads a .vtp: the VTKFile and Piece attributes and the arrays of each section. */
export function parseVtp(xml: string) {
  const file = attrs(xml.match(/<VTKFile([^>]*)>/)![1]);
  const piece = attrs(xml.match(/<Piece([^>]*)>/)![1]);
  const section = (name: string): Record<string, VtpArray> => {
    const m = xml.match(new RegExp(`<${name}[^>]*>([\\s\\S]*?)</${name}>`));
    if (!m) throw new Error(`no <${name}>`);
    const out: Record<string, VtpArray> = {};
    for (const a of m[1].matchAll(/<DataArray([^>]*)>([\s\S]*?)<\/DataArray>/g)) {
      const at = attrs(a[1]);
      expect(at.format).toBe('binary');
      out[at.Name] = { type: at.type, components: Number(at.NumberOfComponents ?? 1), values: decodeTyped(at.type, a[2]) };
    }
    return out;
  };
  return { file, piece, points: section('Points'), polys: section('Polys'), cells: section('CellData') };
}

/** The files of a .zip (read through its central directory, inflated by node:zlib, CRC-32 checked), in stored order. */
export function readZip(bytes: Uint8Array): { name: string; text: string }[] {
  const b = Buffer.from(bytes);
  let end = b.length - 22;
  while (end >= 0 && b.readUInt32LE(end) !== 0x06054b50) end--;
  expect(end, 'end of central directory').toBeGreaterThanOrEqual(0);
  const count = b.readUInt16LE(end + 10);
  let at = b.readUInt32LE(end + 16);
  const out: { name: string; text: string }[] = [];
  for (let i = 0; i < count; i++) {
    expect(b.readUInt32LE(at), 'central directory entry').toBe(0x02014b50);
    const [method, crc, size, nameLen, extraLen, commentLen, local] = [b.readUInt16LE(at + 10), b.readUInt32LE(at + 16), b.readUInt32LE(at + 20),
      b.readUInt16LE(at + 28), b.readUInt16LE(at + 30), b.readUInt16LE(at + 32), b.readUInt32LE(at + 42)];
    const name = b.toString('utf8', at + 46, at + 46 + nameLen);
    expect(b.readUInt32LE(local), 'local header').toBe(0x04034b50);
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const raw = b.subarray(start, start + size);
    const data = method === 8 ? inflateRawSync(raw) : method === 0 ? raw : expect.fail(`zip method ${method}`);
    expect(zlibCrc32(data), `CRC of ${name}`).toBe(crc);
    out.push({ name, text: data.toString('utf8') });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}
