// Detailed phase profile of collide-box at given sizes (sort stages as separate timed passes).
// Then the same 200 steps with per-phase timestamps (the default) and with timing off.
// Usage: node bench/profile-phases.mjs 1e6 16e6 ...   (after npm run build)
import { openGpu } from '../out/src-main/solver/gpu/device.js';
import { Simulation } from '../out/src-main/solver/loop.js';
import { loadCase } from '../out/src-main/solver/run-case.js';
import { readCaseFile } from '../out/src-main/cli/case-file.js';

const gpu = await openGpu();
console.log(`adapter: ${gpu.adapter.description}`);
for (const arg of process.argv.slice(2)) {
  const side = Math.max(1, Math.round(Math.cbrt(Number(arg) / 10)));
  const c = loadCase(readCaseFile('collide-box'), [`grid.cells=[${side},${side},${side}]`, 'run.steps=200', 'sampling.enabled=false']);
  const sim = new Simulation(gpu, c);
  await sim.initialize();
  await sim.run({}, 20);
  const r = await sim.run({ detail: true }, 200);
  const n = sim.liveParticles;
  let gpuTime = 0;
  const rows = [];
  for (const [name, t] of r.phases) { gpuTime += t.totalSeconds; rows.push(`  ${name.padEnd(14)} ${(1e3 * t.totalSeconds / t.calls).toFixed(3).padStart(8)} ms  ${(t.totalSeconds / t.calls / n * 1e12).toFixed(2).padStart(7)} ps/particle`); }
  console.log(`N=${n} cells=${side ** 3} steps=200 wall ${r.seconds.toFixed(3)} s -> ${(n * 200 / r.seconds).toExponential(3)} p-s/s; GPU phases ${(gpuTime / 200 * 1e3).toFixed(3)} ms/step -> ${(n / (gpuTime / 200)).toExponential(3)} p-s/s`);
  console.log(rows.join('\n'));
  console.log('  host', JSON.stringify(r.host));
  for (const timing of ['auto', 'off']) {
    const q = await sim.run({ timing }, 200);
    console.log(`  timing=${timing}: wall ${q.seconds.toFixed(3)} s -> ${(n * 200 / q.seconds).toExponential(3)} p-s/s`);
  }
  sim.state.sets.forEach((s) => Object.values(s).forEach((b) => b.destroy()));
}
gpu.device.destroy();
