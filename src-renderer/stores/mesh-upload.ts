// Bringing an STL mesh from the user's computer into a case in browser mode: the file's bytes go to the server
// (contract uploadMesh, which checks and stores them in the data folder's meshes/), and a body with that file is
// added to the case. The server only reads STL paths inside its folders, so a path typed into the form would be
// refused there; an upload is how a browser user gives it a mesh.
import { bodyRows, newBody, type Json } from './case-bodies.js';

/** Base64 of bytes (in slices, so a mesh of megabytes does not overflow String.fromCharCode's arguments). */
export function base64Of(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/**
 * The name an uploaded file is stored under: the server takes plain names of letters, digits, "-", "_" and inner dots
 * ending in .stl, so other characters (spaces, accents) become "-" ("my wing (v2).STL" -> "my-wing-v2.STL").
 */
export function meshFileName(name: string): string {
  const stem = name.replace(/\.stl$/i, '').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/\.{2,}/g, '.').replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9_-]+$/g, '');
  const ext = /\.stl$/i.exec(name)?.[0] ?? '.stl';
  return `${(stem || 'mesh').slice(0, 90)}${ext}`;
}

/** A new body (named after the file, the case's default surface) whose shape is the uploaded STL at `file` on the server. */
export function stlBody(caseJson: Json | null, fileName: string, file: string): Json {
  const body = newBody(caseJson);
  const stem = fileName.replace(/\.stl$/i, '').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'mesh';
  // a name no other body has (the check refuses two bodies of one name)
  const taken = new Set(bodyRows(caseJson).map((r) => r.name));
  let name = stem;
  for (let k = 2; taken.has(name); k++) name = `${stem}-${k}`;
  return { ...body, name, shape: { type: 'stl', file } };
}
