// Child process of store-kill.test.ts: writes runs to the run database (compiled out/ code) in a loop
// until it is killed. Each run: createRun, 5 appendSteps of 40 steps + 1 totals row, completeRun with
// 4 phases and 13 fields on 8x8x8 cells. Prints "completed ID" after each run.
// argv: DATA_DIR
import { RunStore } from '../../out/src-main/store/run-store.js';
import { FIELD_NAMES } from '../../out/src-main/common/field-names.js';

const store = RunStore.open({ dataDir: process.argv[2] });
const cells = [8, 8, 8];
const n = 512;
const array = (k) => Float64Array.from({ length: n }, (_, i) => Math.cos(i + k));
const values = Object.fromEntries(FIELD_NAMES.map((f, k) => [f, array(k)]));
const errors = Object.fromEntries(FIELD_NAMES.map((f, k) => [f, array(-k)]));
const phases = ['move', 'sort', 'collide', 'sample'].map((phase) => ({ rank: 0, phase, calls: 200, totalSeconds: 0.1, minSeconds: 1e-4, maxSeconds: 2e-3 }));
const phaseSummary = { calls: 200, totalSeconds: 0.1, avgSeconds: 5e-4, minSeconds: 1e-4, maxSeconds: 2e-3, percentOfLoop: 10, secondsPerParticleStep: 1e-9 };
const summary = {
  case: 'kill', steps: 200, particles: 1000, meanParticles: 1000, particleSteps: 200000, seconds: 1, particleStepsPerSecond: 2e5,
  collisionsPerParticleStep: 0.07, candidatesPerParticleStep: 0.1, timing: 'wall-clock',
  phases: Object.fromEntries(phases.map((p) => [p.phase, phaseSummary])), otherSeconds: 0.6,
  host: { encodeSeconds: 0, waitSeconds: 0, readbackSeconds: 0, submits: 5 },
  conservation: { particlesStart: 1000, particlesEnd: 1000, momentumRelDrift: 0, energyRelDrift: 0 },
  samples: 200, fieldsSha256: '0'.repeat(64), capacity: 2000, bytesPerParticle: 90, adapter: { description: 'kill test', backend: 'none' },
};

for (let i = 0; ; i++) {
  const id = store.createRun({
    project: `p${i % 3}`, caseName: 'kill', caseJson: { name: 'kill', variant: i % 5 }, seed: i, ranks: 1, gpus: 1,
    adapter: { description: 'kill test', backend: 'none' }, productVersion: '0.0.0-test',
  });
  for (let b = 0; b < 5; b++) {
    const steps = Array.from({ length: 40 }, (_, k) => ({ step: 40 * b + k + 1, particles: 1000, injected: 0, collisions: 70, candidates: 100 }));
    store.appendSteps(id, steps, [{ step: 40 * (b + 1), particles: 1000, kineticEnergy: 1e-15, momentum: [0, 0, 0] }]);
  }
  store.completeRun(id, { summary, phases, fields: { cells, cellSize: [1e-5, 1e-5, 1e-5], samples: 200, blocks: 10, values, errors } });
  process.stdout.write(`completed ${id}\n`);
}
