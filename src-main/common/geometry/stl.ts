// STL reader (ASCII and binary) into a flat triangle array, 9 numbers per triangle. The file's normals are
// ignored: the vertex order (counter-clockwise seen from outside) defines the outward side.

/**
 * Most triangles a case's bodies may have in all (the pre-launch checks and the cut-cell volumes take several us per
 * triangle on one core: 327 680 triangles check in about 2 s). Larger meshes are refused at once, naming this limit.
 */
export const MAX_BODY_TRIANGLES = 500_000;
/** Largest ASCII STL file read (about 500 000 facets); it is refused before any of it is decoded into text. */
export const MAX_ASCII_STL_BYTES = 128 * 1024 * 1024;

/** The error for a mesh of `n` triangles over MAX_BODY_TRIANGLES. */
export function tooManyTrianglesError(n: number, what: string, verb = 'has'): Error {
  return new Error(`${what} ${verb} ${n} triangles; the bodies of a case have at most ${MAX_BODY_TRIANGLES} triangles in all (MAX_BODY_TRIANGLES: ` +
    'the geometry checks and cut-cell volumes grow with it): coarsen or decimate the mesh (e.g. MeshLab\'s quadric edge collapse), ' +
    'or use fewer sphere subdivisions');
}

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
      if (!Number.isFinite(x)) throw new Error(`binary STL: triangle ${t} has a non-finite coordinate (${x}); remove that triangle or write the mesh again from your CAD tool`);
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
        if (++vertices === 3) {
          state = 'endloop';
          if (out.length / 9 > MAX_BODY_TRIANGLES) throw tooManyTrianglesError(out.length / 9, `the ASCII STL (by line ${line})`);
        }
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
  if (state !== 'top' && state !== 'solid') throw new Error(`ASCII STL line ${line}: the file ends inside a facet (it may be cut short); write the mesh again from your CAD tool`);
  if (solids === 0 || out.length === 0) throw new Error('ASCII STL: the file contains no facets; write a closed mesh into it (facet normal / outer loop / 3 vertex lines / endloop / endfacet)');
  return Float64Array.from(out);
}

/** The error for an ASCII STL of `size` bytes over MAX_ASCII_STL_BYTES. */
export function asciiTooLargeError(size: number): Error {
  return new Error(`the ASCII STL is ${(size / 2 ** 20).toFixed(1)} MiB (${size} bytes); ASCII STL files are read up to ${MAX_ASCII_STL_BYTES / 2 ** 20} MiB ` +
    `(MAX_ASCII_STL_BYTES, about ${MAX_BODY_TRIANGLES} facets): save the mesh as binary STL (5 times smaller) and coarsen it if it has more than ${MAX_BODY_TRIANGLES} triangles`);
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
      if (n === 0) throw new Error('binary STL: the file contains no triangles; write a closed mesh into it from your CAD tool');
      if (n > MAX_BODY_TRIANGLES) throw tooManyTrianglesError(n, 'the binary STL');
      return parseBinary(bytes, n);
    }
  }
  if (startsWithWord(bytes, skipSpace(bytes, 0), 'solid')) {
    if (bytes.length > MAX_ASCII_STL_BYTES) {
      throw asciiTooLargeError(bytes.length);
    }
    return parseAscii(bytes);
  }
  if (bytes.length < 84) throw new Error(`not an STL file: ${bytes.length} bytes, too short for a binary STL and not starting with "solid"; write the mesh as binary or ASCII STL`);
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
  throw new Error(
    `not an STL file: it does not start with "solid" (ASCII) and its size ${bytes.length} bytes is not 84 + 50 x ${n} ` +
      `= ${84 + 50 * n} as the triangle count in its header requires (binary); the file may be truncated: write the mesh again from your CAD tool`,
  );
}
