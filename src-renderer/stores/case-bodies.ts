// The bodies of the case being edited, as the editor lists them: name, shape, surface model, triangle count
// (from the shape's parameters, without meshing) and the check's messages about each; and a new body to add.
import { shapeSchema } from '../../src-main/common/body-schema.js';
import { shapeTriangleCount } from '../../src-main/common/geometry/shapes.js';

/** One body as the case editor lists it. */
export interface BodyRow {
  index: number;
  /** Field path of the body, e.g. `bodies[0]`. */
  path: string;
  name: string;
  /** Shape type (sphere, box, wedge, cylinder, stl) and its main sizes in words. */
  shape: string;
  shapeDetail: string;
  /** Surface model with its wall temperature and accommodation. */
  surface: string;
  /** Triangles the body is meshed into; null for an STL file (counted when the file is read) or an unknown shape. */
  triangles: number | null;
}

export type Json = Record<string, unknown>;

/** A number or undefined. */
function num(x: unknown): number | undefined {
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}

/** [x, y, z] as text, or '?'. */
function vec(x: unknown): string {
  return Array.isArray(x) ? `[${x.map((v) => (typeof v === 'number' ? Number(v.toPrecision(4)) : '?')).join(', ')}]` : '?';
}

/** The grid of a case as the meshes need it: the box's lengths and the cell size (facet size of box, wedge, cylinder); null when unreadable. */
export function caseGrid(caseJson: Json | null): { domain: [number, number, number]; cellSize: [number, number, number] } | null {
  const grid = (caseJson?.grid ?? {}) as { cells?: unknown; cellSize?: unknown };
  if (!Array.isArray(grid.cells) || !Array.isArray(grid.cellSize)) return null;
  const cells = [0, 1, 2].map((a) => num((grid.cells as unknown[])[a]));
  const size = [0, 1, 2].map((a) => num((grid.cellSize as unknown[])[a]));
  if (cells.some((x) => x === undefined) || size.some((x) => x === undefined || x <= 0)) return null;
  return { domain: cells.map((n, a) => n! * size[a]!) as [number, number, number], cellSize: size as [number, number, number] };
}

/**
 * Triangles of a built-in shape as tessellateShape meshes it for a case of this grid (common/geometry/shapes.ts);
 * null for STL, an unknown type or a shape that does not parse yet.
 */
export function shapeTriangles(shape: Json, grid: ReturnType<typeof caseGrid> = null): number | null {
  const parsed = shapeSchema.safeParse(shape);
  if (!parsed.success) return null;
  try {
    return shapeTriangleCount(parsed.data, grid?.domain ?? [1, 1, 1], grid?.cellSize);
  } catch {
    return null; // e.g. a wedge whose apex is above the box: the check says why
  }
}

/** The main sizes of a shape in words. */
function shapeDetail(shape: Json): string {
  switch (shape.type) {
    case 'sphere': return `radius ${num(shape.radius) ?? '?'} m at ${vec(shape.center)} m`;
    case 'cylinder': return `radius ${num(shape.radius) ?? '?'} m, axis ${typeof shape.axis === 'string' ? shape.axis : Array.isArray(shape.axis) ? vec(shape.axis) : 'z'}, at ${vec(shape.center)} m`;
    case 'box': return `${vec(shape.min)} m to ${vec(shape.max)} m`;
    case 'wedge': return `${num(shape.angle) ?? '?'}°, length ${num(shape.length) ?? '?'} m, apex ${vec(shape.apex)} m${shape.symmetric === true ? ', symmetric' : ''}`;
    case 'stl': return `${typeof shape.file === 'string' ? shape.file : '?'}${num(shape.scale) !== undefined && shape.scale !== 1 ? ` x ${shape.scale}` : ''}`;
    default: return '';
  }
}

/** The surface model in words, e.g. "diffuse, 300 K" or "maxwell, 300 K, accommodation 0.8". */
function surfaceText(surface: Json): string {
  const model = typeof surface.model === 'string' ? surface.model : '?';
  const parts = [model];
  if (num(surface.temperature) !== undefined) parts.push(`${surface.temperature} K`);
  if (num(surface.accommodation) !== undefined) parts.push(`accommodation ${surface.accommodation}`);
  const v = surface.velocity;
  if (Array.isArray(v) && v.some((x) => x !== 0)) parts.push(`moving ${vec(v)} m/s`);
  return parts.join(', ');
}

/** The rows of a case's bodies (an absent or malformed list gives what can be read). */
export function bodyRows(caseJson: Json | null): BodyRow[] {
  const bodies = caseJson?.bodies;
  if (!Array.isArray(bodies)) return [];
  const grid = caseGrid(caseJson);
  return bodies.map((b, index) => {
    const body = (b && typeof b === 'object' ? b : {}) as Json;
    const shape = (body.shape && typeof body.shape === 'object' ? body.shape : {}) as Json;
    const surface = (body.surface && typeof body.surface === 'object' ? body.surface : {}) as Json;
    return {
      index,
      path: `bodies[${index}]`,
      name: typeof body.name === 'string' ? body.name : `(body ${index + 1} has no name)`,
      shape: typeof shape.type === 'string' ? shape.type : '?',
      shapeDetail: shapeDetail(shape),
      surface: surfaceText(surface),
      triangles: shapeTriangles(shape, grid),
    };
  });
}

/**
 * The check's messages about one body: those at its path or below (`bodies[0].shape.radius`), and those on
 * the whole list (`bodies`: placement, overlap) that name it in quotes.
 */
export function bodyMessages<M>(messages: Map<string, M[]>, row: BodyRow): M[] {
  const out: M[] = [];
  for (const [path, list] of messages) {
    if (path === row.path || path.startsWith(`${row.path}.`) || path.startsWith(`${row.path}[`)) out.push(...list);
    else if (path === 'bodies') out.push(...list.filter((m) => String((m as { text?: unknown }).text ?? '').includes(`"${row.name}"`)));
  }
  return out;
}

/** A new body for the case: a diffuse coarse sphere in the middle of the box, a fifth of its smallest resolved side across, at the initial temperature. */
export function newBody(caseJson: Json | null): Json {
  const grid = (caseJson?.grid ?? {}) as { cells?: unknown; cellSize?: unknown };
  const cells = Array.isArray(grid.cells) ? grid.cells : [1, 1, 1];
  const size = Array.isArray(grid.cellSize) ? grid.cellSize : [1, 1, 1];
  const L = [0, 1, 2].map((a) => (num(cells[a]) ?? 1) * (num(size[a]) ?? 1));
  const initial = (caseJson?.initial ?? {}) as Json;
  const names = new Set(bodyRows(caseJson).map((r) => r.name));
  let k = names.size + 1;
  while (names.has(`body${k}`)) k++;
  const round = (x: number) => Number(x.toPrecision(6));
  // sized to the box's extents across which the flow is resolved (a quasi-2D case's one-cell depth would give a
  // sphere smaller than a cell), with a coarse mesh (2 subdivisions: 320 triangles) to refine in the form
  const resolved = L.filter((_, a) => (num(cells[a]) ?? 1) > 1);
  return {
    name: `body${k}`,
    shape: { type: 'sphere', center: L.map((x) => round(x / 2)), radius: round(Math.min(...(resolved.length ? resolved : L)) / 10), subdivisions: 2 },
    surface: { model: 'diffuse', temperature: num(initial.temperature) ?? 300 },
  };
}
