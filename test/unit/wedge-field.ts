// A synthetic field like the hypersonic wedge's particle counts (resources/cases/hypersonic-wedge.json, shrunk): free
// stream from x = 0, a 30-degree ramp on y = 0 from the apex, and an oblique shock from the apex whose layer between
// shock and ramp holds `ratio` times the free-stream density. As the shock forms, the ratio grows and the shock stands
// further out (its angle grows): the field drifts the way the wedge run's does.
import type { Grid } from '../../src-main/cluster/decomposition/types.js';

/** The shock's state: density ratio across it and its angle to the free stream (degrees). */
export interface Shock {
  ratio: number;
  angle: number;
}

/** Particles per cell of the wedge case on grid (x, y over the 0.2 x 0.1 m box; z thin and uniform), perCell in the free stream. */
export function wedgeCounts(grid: Grid, shock: Shock, perCell = 16): Uint32Array {
  const [nx, ny, nz] = grid;
  const out = new Uint32Array(nx * ny * nz);
  const ramp = Math.tan((30 * Math.PI) / 180);
  const front = Math.tan((shock.angle * Math.PI) / 180);
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      // cell centre in metres
      const px = ((x + 0.5) / nx) * 0.2;
      const py = ((y + 0.5) / ny) * 0.1;
      const along = px - 0.03;
      let n = perCell;
      if (along > 0 && along <= 0.12 && py < along * ramp) n = 0; // inside the wedge
      else if (along > 0.12 && py < 0.12 * ramp) n = perCell / shock.ratio; // the wake behind its base empties as the shock forms
      else if (along > 0 && py < along * front) n = perCell * shock.ratio * (1 + 0.5 * Math.exp(-(py - Math.min(along, 0.12) * ramp) / 0.004)); // shock layer, denser at the cold wall
      // (ratio 1: no shock yet, every gas cell at the free stream's count: the run's first split, by gas volume)
      for (let z = 0; z < nz; z++) out[x + nx * (y + ny * z)] = Math.round(n);
    }
  }
  return out;
}
