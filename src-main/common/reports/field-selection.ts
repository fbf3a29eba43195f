// Which cells `dsmc fields` prints: a plane, a line or a point of the grid, given by cell indices
// (--plane z=3, --line x=4,y=0, --point x=1,y=2,z=3) or by positions in metres (--at x=0.01: the plane of cells
// holding x = 0.01 m; two coordinates a line, three a point). Cells come back in storage order (x fastest).

const AXES = ['x', 'y', 'z'] as const;
type Axis = (typeof AXES)[number];

/** A parsed selection: the fixed cell index per axis (the free axes are absent), and how the user wrote it. */
export interface FieldSelection {
  kind: 'plane' | 'line' | 'point';
  fixed: Partial<Record<Axis, number>>;
  text: string;
}

/** How many coordinates each option takes. */
const COUNTS: Record<FieldSelection['kind'], number> = { plane: 1, line: 2, point: 3 };
const KIND_OF_COUNT: FieldSelection['kind'][] = ['plane', 'line', 'point'];

/** Parses `x=1,y=2` into axis/value pairs; throws naming the option and an example. */
function pairs(option: string, text: string, example: string): [Axis, string][] {
  const out: [Axis, string][] = [];
  for (const part of text.split(',')) {
    const m = /^\s*([xyz])\s*=\s*(\S+)\s*$/.exec(part);
    if (!m) throw new Error(`--${option}: "${part}" is not AXIS=VALUE with AXIS x, y or z; e.g. --${option} ${example}`);
    if (out.some(([a]) => a === m[1])) throw new Error(`--${option}: axis ${m[1]} is given twice in "${text}"; e.g. --${option} ${example}`);
    out.push([m[1] as Axis, m[2]]);
  }
  return out;
}

/**
 * The cells named by one of the options (plane, line, point: cell indices; at: metres) on a grid of `cells` cells of
 * `cellSize` m. Throws naming the option and what to change when the text, the count or a value is wrong.
 */
export function parseSelection(opts: { plane?: string; line?: string; point?: string; at?: string }, cells: number[], cellSize: number[]): FieldSelection {
  const given = (['plane', 'line', 'point', 'at'] as const).filter((k) => opts[k] !== undefined);
  if (given.length !== 1) {
    throw new Error(`give exactly one of --plane, --line, --point (cell indices) or --at (metres)${given.length ? `, not ${given.map((g) => `--${g}`).join(' and ')}` : ''}; ` +
      'e.g. --plane z=0, --line x=4,y=0, --point x=1,y=2,z=0 or --at x=0.01');
  }
  const option = given[0];
  const text = opts[option]!;
  const examples = { plane: 'z=0', line: 'x=4,y=0', point: 'x=1,y=2,z=0', at: 'x=0.01' };
  const list = pairs(option, text, examples[option]);
  if (option !== 'at' && list.length !== COUNTS[option]) {
    throw new Error(`--${option} takes ${COUNTS[option]} coordinate${COUNTS[option] > 1 ? 's' : ''}, got ${list.length} in "${text}"; e.g. --${option} ${examples[option]}`);
  }
  const fixed: Partial<Record<Axis, number>> = {};
  for (const [axis, raw] of list) {
    const a = AXES.indexOf(axis);
    if (option === 'at') {
      const x = Number(raw);
      const length = Number((cells[a] * cellSize[a]).toPrecision(12));
      if (!Number.isFinite(x) || x < 0 || x > length) {
        throw new Error(`--at ${axis}=${raw}: expected a position in metres inside the box, 0 to ${length} m along ${axis}`);
      }
      fixed[axis] = Math.min(cells[a] - 1, Math.floor(x / cellSize[a]));
    } else {
      const i = Number(raw);
      if (!/^\d+$/.test(raw) || i >= cells[a]) {
        throw new Error(`--${option} ${axis}=${raw}: expected a cell index from 0 to ${cells[a] - 1} (the grid has ${cells[a]} cells along ${axis}); for a position in metres use --at ${axis}=...`);
      }
      fixed[axis] = i;
    }
  }
  return { kind: KIND_OF_COUNT[list.length - 1], fixed, text: `--${option} ${text}` };
}

/** The selected cells' indices (i, j, k) and storage ids, x fastest. */
export function selectedCells(sel: FieldSelection, cells: number[]): { i: number; j: number; k: number; id: number }[] {
  const range = (a: number) => {
    const f = sel.fixed[AXES[a]];
    return f === undefined ? Array.from({ length: cells[a] }, (_, v) => v) : [f];
  };
  const out: { i: number; j: number; k: number; id: number }[] = [];
  for (const k of range(2)) for (const j of range(1)) for (const i of range(0)) out.push({ i, j, k, id: i + cells[0] * (j + cells[1] * k) });
  return out;
}
