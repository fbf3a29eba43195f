// A closed box of five-species air reacting from 20,000 K (air5, TCE): the dissociations take their energy from the
// gas, so its kinetic and internal energy fall, and the sum with the chemical energy the reactions took (summary
// reactions.chemicalEnergy) is conserved to 1e-5; a periodic box also keeps its momentum (reactions keep mass and
// momentum: the library's masses add up); each dissociation adds one particle; O2 dissociates first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gpu } from '../../src-main/solver/gpu/device.js';
import { summarize } from '../../src-main/solver/summary.js';
import { compositionSummary } from '../../src-main/solver/composition-summary.js';
import { gpuForTests, presetCase, simulate } from './harness.js';

let gpu: Gpu;
beforeAll(async () => { gpu = await gpuForTests(); });
afterAll(() => gpu?.device.destroy());

describe('reacting air in a closed box', () => {
  it.each([
    ['specular walls', 'specular', [0, 0, 0]],
    ['periodic faces, drifting', 'periodic', [800, -300, 150]],
  ] as const)('%s: energy with the chemical energy conserved to 1e-5, one particle per dissociation', async (_name, face, velocity) => {
    const c = presetCase('reacting-air', [
      'grid.cells=[8,8,8]', 'particles.perCell=20', 'run.steps=300', 'run.stepsPerSubmit=50',
      ...['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'].map((f) => `boundaries.${f}={"type":"${face}"}`),
      `initial.velocity=${JSON.stringify(velocity)}`,
    ]);
    const { result } = await simulate(gpu, c, { timing: 'off' });
    const s = summarize(c.name, result, gpu.adapter, 0);
    const rx = s.reactions!;
    expect(rx.performed).toBe(true);
    const made = result.stepStats.reduce((sum, x) => sum + (x.products ?? 0), 0);
    const dissociations = rx.reactions.filter((r) => r.kind === 'dissociation').reduce((sum, r) => sum + r.count, 0);
    expect(made).toBe(dissociations);
    expect(result.end.particles).toBe(result.start.particles + made);
    expect(dissociations).toBeGreaterThan(500);
    // the chemistry took a tenth of the energy or more: without it the balance would be far off
    const e0 = result.start.kineticEnergy + result.start.internalEnergy!;
    expect(rx.chemicalEnergy / e0).toBeGreaterThan(0.05);
    expect(s.conservation.energyRelDrift).toBeLessThan(1e-5);
    if (face === 'periodic') expect(s.conservation.momentumRelDrift).toBeLessThan(1e-5);
    // O2 (21 %) dissociates faster than N2 (79 %): more O atoms than N atoms at the end, and fewer O2 molecules than at the start
    const composition = compositionSummary(c, result)!;
    const x = composition.moleFractions;
    const names = composition.species;
    const at = (n: string) => x[names.indexOf(n)];
    expect(at('O')).toBeGreaterThan(at('N'));
    expect(at('O2')).toBeLessThan(0.21 * result.start.particles / result.end.particles);
  });
});
