// Coverage check of a decomposition: every box inside the grid and non-empty, every cell owned exactly once.
import { boxCells, cellCoords, cellCount, forEachCell } from './box.js';
import { checkGrid, formatBox, formatGrid } from './errors.js';
import type { Decomposition } from './types.js';

/** The owner map (rank per global cell id, -1 where none) and what is wrong with the coverage (empty when exact). */
export function fillOwners(d: Decomposition): { map: Int32Array; problems: string[] } {
  checkGrid(d.grid);
  const problems: string[] = [];
  const map = new Int32Array(cellCount(d.grid)).fill(-1);
  if (d.boxes.length === 0) problems.push('the decomposition has no boxes: it needs one box per rank');
  d.boxes.forEach((box, r) => {
    const outside = [0, 1, 2].some((a) => box.lo[a] < 0 || box.hi[a] > d.grid[a]);
    if (outside) problems.push(`rank ${r}'s box ${formatBox(box)} reaches outside the grid ${formatGrid(d.grid)}`);
    if (boxCells(box) === 0) problems.push(`rank ${r}'s box ${formatBox(box)} is empty`);
    let overlaps = 0;
    let first = -1;
    let other = -1;
    forEachCell(d.grid, box, (g) => {
      if (map[g] === -1) map[g] = r;
      else if (overlaps++ === 0) {
        first = g;
        other = map[g];
      }
    });
    if (overlaps) {
      problems.push(`rank ${r}'s box ${formatBox(box)} overlaps rank ${other}'s at cell (${cellCoords(d.grid, first).join(',')}), ${overlaps} cells in all`);
    }
  });
  let gaps = 0;
  let firstGap = -1;
  for (let g = 0; g < map.length; g++) {
    if (map[g] === -1 && gaps++ === 0) firstGap = g;
  }
  if (gaps) problems.push(`${gaps} cells belong to no rank, the first at (${cellCoords(d.grid, firstGap).join(',')})`);
  return { map, problems };
}

/** What is wrong with a decomposition's coverage of its grid (empty when every cell has exactly one rank). */
export function coverageProblems(d: Decomposition): string[] {
  return fillOwners(d).problems;
}
