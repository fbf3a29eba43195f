// Heat-bath reaction rates (as SPARTA's examples/chem_rates measures them): five-species air at equal mole fractions
// and 10,000 K or 20,000 K, its reactions counted but not made (reactions.perform false, so the bath keeps its
// composition and temperature). Each reaction's count over the run is checked against
//  - what Bird's TCE model attains in equilibrium (tce-equilibrium.ts, computed on the host): within 5 % or three
//    standard deviations (the count's Poisson error and the estimate's Monte Carlo error), for every reaction;
//  - the Arrhenius rate k(T) = A T^b exp(-Ea/kT) it is built from, within 5 % or three standard deviations, for every
//    reaction the model can attain: where a species pair's reaction probabilities pass 1 at some collision energies
//    (the rate nears or exceeds the pair's collision rate), the model gives less, as in SPARTA (react_tce.cpp sums the
//    probabilities against one uniform too). The table of all of them is printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCase, type Case } from '../../src-main/common/case-schema.js';
import { caseReactions } from '../../src-main/common/reactions.js';
import { tceEquilibriumRates } from '../../src-main/common/tce-equilibrium.js';
import { BOLTZMANN } from '../../src-main/common/physics.js';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { gpuForTests, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

/** The bath: 51,200 particles in a periodic box, about 0.7 collisions per particle and step. */
function bath(temperature: number, steps: number, dt: number): Case {
  const periodic = { type: 'periodic' };
  return parseCase({
    name: `air heat bath ${temperature} K`,
    grid: { cells: [8, 8, 8], cellSize: [1e-5, 1e-5, 1e-5] },
    species: [{ use: 'O2' }, { use: 'N2' }, { use: 'NO' }, { use: 'O' }, { use: 'N' }],
    particles: { perCell: 100 },
    initial: { numberDensity: 1e23, temperature },
    boundaries: { xmin: periodic, xmax: periodic, ymin: periodic, ymax: periodic, zmin: periodic, zmax: periodic },
    run: { steps, dt, stepsPerSubmit: 100 },
    reactions: { use: 'air5', perform: false },
    sampling: { enabled: false },
  });
}

describe.each([
  [10000, 400, 1e-8],
  [20000, 300, 6e-9],
])('five-species air at %i K', (temperature, steps, dt) => {
  it('counts every reaction at the TCE model\'s rate, and at the Arrhenius rate wherever the model attains it', async () => {
    const c = bath(temperature, steps, dt);
    const { sim, result } = await simulate(gpu, c, { timing: 'off' });
    const cells = new Uint32Array((await sim.readParticles(['cell'])).cell);
    const count = c.species.map(() => 0);
    for (const w of cells) count[w >>> 27] += 1;
    // nothing reacted for real: the composition is the fill's, the temperature the bath's (translational energy / 1.5 N k)
    expect(result.end.particles).toBe(result.start.particles);
    const fnum = sim.tables.fnum;
    const t = result.start.kineticEnergy / (1.5 * result.start.particles * fnum * BOLTZMANN);
    expect(Math.abs(t / temperature - 1)).toBeLessThan(0.01);
    const volume = 512 * 1e-15;
    const time = steps * dt;
    const { reactions } = caseReactions(c);
    const rates = tceEquilibriumRates(c, reactions, t, 400_000);
    const rows: string[] = [];
    let attainable = 0;
    reactions.forEach((r, k) => {
      const [a, b] = r.reactants;
      // events k n_a n_b V t, in simulated particles (n = N fnum / V)
      const pairs = (count[a] * count[b] * fnum) / volume * time;
      const got = result.reactionCounts![k];
      const attained = rates[k].attained * pairs;
      const mcError = rates[k].attainedError * pairs;
      const arrhenius = rates[k].arrhenius * pairs;
      rows.push(`${r.equation.padEnd(26)} ${String(got).padStart(7)}  TCE ${attained.toFixed(0).padStart(7)}  Arrhenius ${arrhenius.toFixed(0).padStart(7)}  ` +
        `count/TCE ${(got / attained).toFixed(3)}  count/Arrhenius ${(got / arrhenius).toFixed(3)}  TCE/Arrhenius ${(attained / arrhenius).toFixed(3)}`);
      expect(Math.abs(got - attained), `${r.equation}: ${got} counted, the TCE model gives ${attained.toFixed(1)}`)
        .toBeLessThanOrEqual(Math.max(0.05 * attained, 3 * Math.sqrt(attained + mcError * mcError)));
      // where the model attains the Arrhenius rate (within its Monte Carlo error), the counts follow Arrhenius too
      if (Math.abs(attained / arrhenius - 1) < Math.max(0.01, 3 * mcError / arrhenius)) {
        attainable += 1;
        expect(Math.abs(got - arrhenius), `${r.equation}: ${got} counted, Arrhenius gives ${arrhenius.toFixed(1)}`)
          .toBeLessThanOrEqual(Math.max(0.05 * arrhenius, 3 * Math.sqrt(arrhenius)));
      }
    });
    process.stdout.write(`heat bath at ${t.toFixed(0)} K, ${steps} steps of ${dt} s, ${result.start.particles} particles:\n  ${rows.join('\n  ')}\n`);
    // most of the set's reactions are within the model's reach at 10,000 K
    if (temperature === 10000) expect(attainable).toBeGreaterThanOrEqual(8);
  });
});
