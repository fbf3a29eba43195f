// Reading a stored case (validated JSON, typed `unknown` in the store): its key fields for a report
// and a flat list of its leaf values by path for comparing cases.

/** One labelled value of a case, formatted for display. */
export interface CaseField {
  label: string;
  value: string;
}

/** The value at a dot path (numeric segments index arrays), or undefined. */
export function valueAt(json: unknown, path: string): unknown {
  let v: unknown = json;
  for (const seg of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[seg];
  }
  return v;
}

/** A value as compact text: strings bare, everything else as JSON; undefined as '(absent)'. */
export function showValue(v: unknown): string {
  if (v === undefined) return '(absent)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** One boundary face as text: its type plus temperature and velocity where it has them. */
function showFace(face: unknown): string {
  if (face === null || typeof face !== 'object') return showValue(face);
  const { type, ...rest } = face as Record<string, unknown>;
  const extras = Object.entries(rest).map(([k, v]) => `${k} ${showValue(v)}`);
  return extras.length > 0 ? `${showValue(type)} (${extras.join(', ')})` : showValue(type);
}

/** The fields a report shows about a case: grid, species, particles, initial state, boundaries, run and sampling. */
export function caseKeyFields(json: unknown): CaseField[] {
  const out: CaseField[] = [];
  const add = (label: string, path: string) => {
    const v = valueAt(json, path);
    if (v !== undefined) out.push({ label, value: showValue(v) });
  };
  add('name', 'name');
  add('cells', 'grid.cells');
  add('cell size (m)', 'grid.cellSize');
  const species = valueAt(json, 'species');
  if (Array.isArray(species)) out.push({ label: 'species', value: species.map((s) => showValue(valueAt(s, 'name'))).join(', ') });
  add('particles per cell', 'particles.perCell');
  add('real molecules per particle', 'particles.fnum');
  add('initial state', 'initial.kind');
  add('number density (m^-3)', 'initial.numberDensity');
  add('temperature (K)', 'initial.temperature');
  add('drift velocity (m/s)', 'initial.velocity');
  for (const face of ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax']) {
    const f = valueAt(json, `boundaries.${face}`);
    if (f !== undefined) out.push({ label: `boundary ${face}`, value: showFace(f) });
  }
  add('steps', 'run.steps');
  add('dt (s)', 'run.dt');
  add('seed', 'run.seed');
  add('steps per submit', 'run.stepsPerSubmit');
  add('sampling enabled', 'sampling.enabled');
  add('sampling start', 'sampling.start');
  add('sampling interval', 'sampling.interval');
  return out;
}

/** Leaf values of a JSON value by dot path; arrays of plain values are one leaf, arrays of objects are indexed. */
export function leafValues(json: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const visit = (v: unknown, path: string) => {
    const isPlainArray = Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object');
    if (v !== null && typeof v === 'object' && !isPlainArray) {
      const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
      for (const [k, x] of entries) visit(x, path ? `${path}.${k}` : k);
      if (entries.length === 0) out.set(path, v);
    } else out.set(path, v);
  };
  visit(json, prefix);
  return out;
}

/** One path whose value differs across cases, with each case's value (undefined where absent). */
export interface CaseDifference {
  path: string;
  values: unknown[];
}

/** The paths whose values differ across the cases, in first-seen order. */
export function caseDifferences(cases: unknown[]): CaseDifference[] {
  const leaves = cases.map((c) => leafValues(c));
  const paths: string[] = [];
  const seen = new Set<string>();
  for (const m of leaves) for (const p of m.keys()) if (!seen.has(p)) { seen.add(p); paths.push(p); }
  const out: CaseDifference[] = [];
  for (const path of paths) {
    const values = leaves.map((m) => m.get(path));
    const texts = values.map((v) => (v === undefined ? '\u0000absent' : JSON.stringify(v)));
    if (texts.some((t) => t !== texts[0])) out.push({ path, values });
  }
  return out;
}
