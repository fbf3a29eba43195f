// STL reader (ASCII and binary) into a flat triangle array, 9 numbers per triangle. The file's normals are
// ignored: the vertex order (counter-clockwise seen from outside) defines the outward side.

// True when the bytes from `at` spell `word` (ASCII, case-insensitive).
function startsWithWord(bytes: Uint8Array, at: number, word: string): boolean {
  if (at + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) {
    let c = bytes[at + i];
    if (c >= 65 && c <= 90) c += 32;
    if (c !== word.charCodeAt(i)) return false;
  }
  return true;
}

// Index of the first byte at or after `at` that is not ASCII whitespace.
function skipSpace(bytes: Uint8Array, at: number): number {
  while (at < bytes.length && (bytes[at] === 32 || bytes[at] === 9 || bytes[at] === 10 || bytes[at] === 13)) at++;
  return at;
}

// Binary STL: 80-byte header, u32 triangle count, then 50 bytes per triangle (normal, 3 vertices, u16).
function parseBinary(bytes: Uint8Array, n: number): Float64Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float64Array(9 * n);
  for (let t = 0; t < n; t++) {
    const base = 84 + 50 * t + 12;
    for (let q = 0; q < 9; q++) {
      const x = view.getFloat32(base + 4 * q, true);
      if (!Number.isFinite(x)) throw new Error(`binary STL: triangle ${t} has a non-finite coordinate (${x})`);
      out[9 * t + q] = x;
    }
  }
  return out;
}

// ASCII STL: solid / facet normal / outer loop / 3 x vertex / endloop / endfacet / endsolid (several solids allowed).
function parseAscii(bytes: Uint8Array): Float64Array {
  const out: number[] = [];
  let state: 'top' | 'solid' | 'facet' | 'loop' | 'endloop' | 'endfacet' = 'top';
  let vertices = 0;
  let line = 0;
  let solids = 0;
  for (const text of new TextDecoder().decode(bytes).split('\n')) {
    line++;
    const tok = text.trim().split(/\s+/).filter((w) => w.length > 0);
    if (tok.length === 0) continue;
    const key = tok[0].toLowerCase();
    const fail = (expected: string): never => {
      const shown = text.trim().length > 60 ? `${text.trim().slice(0, 60)}...` : text.trim();
      throw new Error(`ASCII STL line ${line}: expected ${expected}, found "${shown}"`);
    };
    switch (state) {
      case 'top':
        if (key !== 'solid') fail('"solid"');
        state = 'solid';
        solids++;
        break;
      case 'solid':
        if (key === 'endsolid') state = 'top';
        else if (key === 'facet') state = 'facet';
        else fail('"facet normal nx ny nz" or "endsolid"');
        break;
      case 'facet':
        if (key !== 'outer' || tok[1]?.toLowerCase() !== 'loop') fail('"outer loop"');
        state = 'loop';
        vertices = 0;
        break;
      case 'loop': {
        if (key === 'endloop') fail(`"vertex x y z" (a facet needs 3 vertices, this one has ${vertices})`);
        if (key !== 'vertex' || tok.length !== 4) fail('"vertex x y z"');
        for (let q = 1; q < 4; q++) {
          const x = Number(tok[q]);
          if (!Number.isFinite(x)) fail(`"vertex x y z" with finite numbers (not "${tok[q]}")`);
          out.push(x);
        }
        if (++vertices === 3) state = 'endloop';
        break;
      }
      case 'endloop':
        if (key !== 'endloop') fail('"endloop" (a facet has exactly 3 vertices)');
        state = 'endfacet';
        break;
      case 'endfacet':
        if (key !== 'endfacet') fail('"endfacet"');
        state = 'solid';
        break;
    }
  }
  // a missing final "endsolid" is forgiven (some exporters drop it); an unfinished facet is not
  if (state !== 'top' && state !== 'solid') throw new Error(`ASCII STL line ${line}: the file ends inside a facet`);
  if (solids === 0 || out.length === 0) throw new Error('ASCII STL: the file contains no facets');
  return Float64Array.from(out);
}

/**
 * Triangles of an ASCII or binary STL file (9 numbers per triangle). A file is binary when its size is
 * 84 + 50 n for the count n in bytes 80..83, whatever its 80-byte header says (exporters write "solid NAME" and even
 * "facet" text there). An ASCII file cannot have that size: bytes 80..83 of text give n >= 0x09090909, a file of
 * more than 7 GB. Throws Error naming the problem (and the line, for ASCII).
 */
export function parseStl(bytes: Uint8Array): Float64Array {
  if (bytes.length >= 84) {
    const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
    if (84 + 50 * n === bytes.length) {
      if (n === 0) throw new Error('binary STL: the file contains no triangles');
      return parseBinary(bytes, n);
    }
  }
  if (startsWithWord(bytes, skipSpace(bytes, 0), 'solid')) return parseAscii(bytes);
  if (bytes.length < 84) throw new Error(`not an STL file: ${bytes.length} bytes, too short for a binary STL and not starting with "solid"`);
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
  throw new Error(
    `not an STL file: it does not start with "solid" (ASCII) and its size ${bytes.length} bytes is not 84 + 50 x ${n} ` +
      `= ${84 + 50 * n} as the triangle count in its header requires (binary); the file may be truncated`,
  );
}
