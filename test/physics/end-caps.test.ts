// A body's end caps on a periodic or specular domain face (every extruded 2D body; issue 25 item 17), on lavapipe:
// a cylinder through a box of argon at rest (closed) or streaming at speed ratio 2 (fed through the x and y faces),
// free-molecular. Its incident number rate must equal the free-molecular flux over its side faces (the caps lie on the box faces, where no gas can reach
// them), within 3 %; before, particles on the rim bounced between the two caps up to the 64-hit limit every step and
// the rate came out up to 52 % high. The caps themselves get no hits, and no particle ends inside the body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCase } from '../../src-main/common/case-schema.js';
import { insideTester } from '../../src-main/common/geometry/index.js';
import { BOLTZMANN } from '../../src-main/common/physics.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { surfaceResults, surfaceSummary } from '../../src-main/solver/surface-summary.js';
import { gpuForTests, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

const AR = { name: 'Ar', mass: 6.63e-26, dRef: 4.17e-10, omega: 0.81, tRef: 273, alpha: 1 };
const T = 300;
const N = 1e17; // mean free path about 13 m in a 0.1 m box: free-molecular
const CMP = Math.sqrt((2 * BOLTZMANN * T) / AR.mass);

/** erf (Abramowitz-Stegun 7.1.26, |error| < 1.5e-7). */
function erf(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x >= 0 ? y : -y;
}

/** Free-molecular number flux onto a face of outward normal nrm from a Maxwellian of density N drifting at u. */
function faceFlux(u: number[], nrm: number[]): number {
  const q = -(u[0] * nrm[0] + u[1] * nrm[1] + u[2] * nrm[2]) / CMP;
  return N * CMP * (Math.exp(-q * q) / (2 * Math.sqrt(Math.PI)) + (q / 2) * (1 + erf(q)));
}

describe('end caps on the box faces', () => {
  for (const [zFace, speedRatio] of [['periodic', 0], ['specular', 0], ['periodic', 2], ['specular', 2]] as const) {
    it(`cylinder through the box, z faces ${zFace}, stream speed ratio ${speedRatio}: incident rate = free-molecular flux over the side`, async () => {
      const u = [speedRatio * CMP, 0, 0];
      const wall = speedRatio === 0 ? { type: 'specular' } : { type: 'inflow', numberDensity: N, temperature: T, velocity: u };
      const c = parseCase({
        name: 'caps', grid: { cells: [10, 10, 2], cellSize: [0.01, 0.01, 0.01] }, species: [AR],
        particles: { perCell: 100 }, initial: { kind: 'maxwellian', numberDensity: N, temperature: T, velocity: u },
        boundaries: { xmin: wall, xmax: wall, ymin: wall, ymax: wall, zmin: { type: zFace }, zmax: { type: zFace } },
        bodies: [{ name: 'rod', shape: { type: 'cylinder', center: [0.05, 0.05, 0.01], radius: 0.02, segments: 32 }, surface: { model: 'specular' } }],
        run: { steps: 1000, dt: 2e-6, seed: 5, stepsPerSubmit: 50 }, sampling: { start: 0 },
      });
      const { sim, result } = await simulate(gpu, c);
      const b = sim.tables.bodies;
      const res = surfaceResults(c, sim.tables, result.surface);
      let side = 0, capRate = 0, theory = 0;
      for (let t = 0; t < b.nTris; t++) {
        const q = b.tris.subarray(9 * t, 9 * t + 9);
        const e1 = [q[3] - q[0], q[4] - q[1], q[5] - q[2]], e2 = [q[6] - q[0], q[7] - q[1], q[8] - q[2]];
        const cr = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
        const a = Math.hypot(cr[0], cr[1], cr[2]) / 2;
        if (Math.abs(cr[2]) / (2 * a) > 0.5) capRate += res.incidentRate[t];
        else {
          side += a;
          theory += a * faceFlux(u, cr.map((x) => x / (2 * a)));
        }
      }
      const rate = surfaceSummary(c, sim.tables, result.surface).bodies[0].incidentRate;
      console.log(`caps on ${zFace} faces, s = ${speedRatio}: incident rate ${rate.toExponential(4)} against ${theory.toExponential(4)} (${((rate / theory - 1) * 100).toFixed(2)} %), caps ${capRate.toExponential(2)}`);
      expect(capRate).toBe(0);
      expect(Math.abs(rate / theory - 1)).toBeLessThan(0.03);
      const r = await sim.readParticles(['px', 'py', 'pz', 'cell']);
      const px = new Float32Array(r.px), py = new Float32Array(r.py), pz = new Float32Array(r.pz), cell = new Uint32Array(r.cell);
      const tester = insideTester(b.tris, c.grid);
      let inside = 0;
      for (let i = 0; i < px.length; i++) if (cell[i] !== 0xffffffff && tester.isInside(px[i], py[i], pz[i])) inside++;
      expect(inside).toBe(0);
    }, 300_000);
  }
});
