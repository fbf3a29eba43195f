// The composition and temperatures of a closed reacting box against time, as CSV (step,time,N_<species>...,T,Trot,Tvib),
// for the side-by-side check with SPARTA (bench/sparta-air/compare.mjs). T from the peculiar velocities (3/2 N k T),
// Trot from the rotational energy of the rotating molecules (one kT per molecule), Tvib per vibrating species from its
// mean quanta, averaged over them by molecules (SPARTA's comparison: docs/results/2026-11-26-sparta-air/README.md).
// Usage (after npm run build): node bench/air-relaxation.mjs CASE.json EVERY [out.csv]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { parseCase } = await import(`${root}out/src-main/common/case-schema.js`);
const { openGpu } = await import(`${root}out/src-main/solver/gpu/device.js`);
const { Simulation } = await import(`${root}out/src-main/solver/loop.js`);
const [caseFile, everyArg, outFile] = process.argv.slice(2);
if (!caseFile) throw new Error('usage: node bench/air-relaxation.mjs CASE.json EVERY [out.csv]');
const c = parseCase(JSON.parse(readFileSync(caseFile, 'utf8')));
const every = Number(everyArg ?? 50);
const k = 1.380649e-23;
const gpu = await openGpu();
const sim = new Simulation(gpu, c);
await sim.initialize();

/**
 * Tvib as SPARTA's comparison defines it: per vibrating species theta / ln(1 + 1/v), v its mean number of quanta, then
 * the average over those species weighted by their molecules.
 */
function vibrationalTemperature(energy, count, theta) {
  let sum = 0, molecules = 0;
  for (let s = 0; s < count.length; s++) {
    if (!(theta[s] > 0) || count[s] === 0) continue;
    const v = energy[s] / (count[s] * k * theta[s]);
    sum += count[s] * (v > 0 ? theta[s] / Math.log1p(1 / v) : 0);
    molecules += count[s];
  }
  return molecules > 0 ? sum / molecules : 0;
}

/** One CSV row of the state now. */
async function row(step) {
  const p = await sim.readParticles(['cell', 'vx', 'vy', 'vz']);
  const cell = new Uint32Array(p.cell), vx = new Float32Array(p.vx), vy = new Float32Array(p.vy), vz = new Float32Array(p.vz);
  const e = await sim.readInternalEnergy();
  const ns = c.species.length;
  const count = new Array(ns).fill(0);
  const evib = new Array(ns).fill(0);
  let m = 0, px = 0, py = 0, pz = 0, e2 = 0, erot = 0;
  for (let i = 0; i < cell.length; i++) {
    const s = cell[i] >>> 27;
    const mass = c.species[s].mass;
    count[s] += 1;
    m += mass; px += mass * vx[i]; py += mass * vy[i]; pz += mass * vz[i];
    e2 += mass * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);
    erot += e.rotational[i];
    evib[s] += e.vibrational[i];
  }
  const n = cell.length;
  const t = (e2 - (px * px + py * py + pz * pz) / m) / (3 * n * k);
  const rotating = count.reduce((sum, x, s) => sum + (c.species[s].rotationalDof > 0 ? x * c.species[s].rotationalDof / 2 : 0), 0);
  const theta = c.species.map((s) => s.vibration?.characteristicTemperature ?? 0);
  return [step, step * c.run.dt, ...count, t, rotating > 0 ? erot / (k * rotating) : 0, vibrationalTemperature(evib, count, theta)].join(',');
}

const lines = [`step,time,${c.species.map((s) => `N_${s.name}`).join(',')},T,Trot,Tvib`, await row(0)];
for (let step = 0; step < c.run.steps; step += every) {
  await sim.run({ timing: 'off' }, Math.min(every, c.run.steps - step));
  lines.push(await row(step + Math.min(every, c.run.steps - step)));
}
const text = lines.join('\n') + '\n';
if (outFile) writeFileSync(outFile, text); else process.stdout.write(text);
process.exit(0);
