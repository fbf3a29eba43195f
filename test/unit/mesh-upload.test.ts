// The case editor's STL upload helpers (src-renderer/stores/mesh-upload.ts): the stored name is one the server
// takes, the bytes go as base64, and the body gets a name of its own.
import { describe, expect, it } from 'vitest';
import { base64Of, meshFileName, stlBody } from '../../src-renderer/stores/mesh-upload.js';

/** The server's rule for uploaded names (contract.ts meshName). */
const SERVER_RULE = /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*\.stl$/i;

describe('mesh upload', () => {
  it('stores a file under a name the server takes, whatever the user called it', () => {
    for (const name of ['my cube.stl', 'my wing (v2).STL', ' .hidden.stl', 'ä.stl', 'a..b.stl', 'noext', 'x'.repeat(300) + '.stl', 'wing.v2.stl']) {
      expect(meshFileName(name), name).toMatch(SERVER_RULE);
    }
    expect(meshFileName('my cube.stl')).toBe('my-cube.stl');
    expect(meshFileName('wing.v2.stl')).toBe('wing.v2.stl');
  });

  it('encodes bytes as base64 in slices (megabytes), the same as Node does', () => {
    const bytes = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 37) & 255);
    expect(base64Of(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('adds a body of the uploaded file with a name no other body has', () => {
    const c = { grid: { cells: [10, 10, 10], cellSize: [0.01, 0.01, 0.01] }, bodies: [{ name: 'my-cube', shape: { type: 'sphere' } }] };
    const b = stlBody(c, 'my cube.stl', '/data/meshes/my-cube.stl');
    expect(b.name).toBe('my-cube-2');
    expect(b.shape).toEqual({ type: 'stl', file: '/data/meshes/my-cube.stl' });
  });
});
