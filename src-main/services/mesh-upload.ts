// Meshes brought in through the app (browser mode has no file dialog on the server): the bytes are checked to be an
// STL of at most MAX_BODY_TRIANGLES triangles, then written atomically into the data folder's meshes/ folder, where
// browser mode may read them (file-confinement.ts). A name in use with other bytes is refused, so a mesh that runs
// already name never changes under them. The contract bounds the name and the size (MAX_MESH_UPLOAD_BYTES).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UploadedMesh } from '../common/contract/types.js';
import { parseStl } from '../common/geometry/stl.js';
import { writeFileAtomic } from '../reports/write-atomic.js';

/** Folder of uploaded meshes inside the data folder. */
export const MESH_FOLDER = 'meshes';

/** Checks and stores an uploaded STL as DATA/meshes/NAME; returns its path and triangle count. */
export async function saveUploadedMesh(dataDir: string, name: string, bytes: Buffer): Promise<UploadedMesh> {
  let triangles: number;
  try {
    triangles = parseStl(bytes).length / 9;
  } catch (e) {
    throw new Error(`contentBase64: ${name} is not a readable STL mesh: ${(e as Error).message}`);
  }
  const folder = join(dataDir, MESH_FOLDER);
  const file = join(folder, name);
  if (existsSync(file)) {
    if (readFileSync(file).equals(bytes)) return { file, triangles };
    throw new Error(`name: another mesh named ${name} was uploaded before (runs may use it); choose another name`);
  }
  mkdirSync(folder, { recursive: true });
  await writeFileAtomic(file, bytes);
  return { file, triangles };
}
