#!/usr/bin/env node
// Energy bookkeeping of in.air-relax runs: the change of the thermal energy (translational +
// rotational + vibrational, from the first and last stats rows) must equal the sum over the
// reactions of (SPARTA's tally) x (the reaction energy, last number of its line in air.tce).
// usage: node energy-check.mjs log.relax...
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSpartaLog, toRecords } from './parse-log.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const tce = readFileSync(join(here, 'air.tce'), 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
const energy = {};
for (let i = 0; i + 1 < tce.length; i += 2) energy[tce[i].replace(/\s+/g, ' ')] = Number(tce[i + 1].split(/\s+/)[6]);
for (const f of process.argv.slice(2)) {
  const text = readFileSync(f, 'utf8');
  const p = parseSpartaLog(text);
  const r = toRecords(p);
  const e0 = (r[0].Etot * p.vol) / p.fnum, e1 = (r[r.length - 1].Etot * p.vol) / p.fnum;
  let chem = 0, n = 0;
  for (const m of text.matchAll(/^  reaction (.+): ([0-9.eE+]+)\s*$/gm)) {
    const name = m[1].trim().replace(/\s+/g, ' ');
    if (!(name in energy)) throw new Error(`${f}: unknown reaction ${name}`);
    chem += Number(m[2]) * energy[name]; n += Number(m[2]);
  }
  console.log(`${f}: E_thermal ${e0.toExponential(6)} -> ${e1.toExponential(6)} J (simulated), change ${(e1 - e0).toExponential(6)}, ` +
    `reactions ${n} x their energies ${chem.toExponential(6)}, mismatch ${((e1 - e0 - chem) / e0).toExponential(1)} of E0`);
}
