#!/usr/bin/env node
// Heat-bath rate table from SPARTA logs of in.air-rates (react_modify compute_chem_rates yes).
// usage: node rates.mjs log.rates.* > rates.md
// For each reaction: SPARTA's tally over the run, the count expected from the Arrhenius rate
//   events = k(T) n1 n2 V t / fnum   (R1 != R2),   k(T) n1^2 V t / fnum   (R1 == R2)
//   k(T) = A T^b exp(-Ea/(kB T)),  n_i = N_i fnum / V  (N_i simulated particles, constant here),
// T = mean translational temperature over the stats rows of the run (the gas stays in equilibrium,
// nothing reacts), and their ratio with the Poisson error sqrt(count)/expected.
// The reaction data (A, b, Ea) are read from the .tce file the run used (next to this script).
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const KB = 1.380649e-23;
const HERE = dirname(fileURLToPath(import.meta.url));

function readTce(file) {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const out = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const [lhs, rhs] = lines[i].split('-->').map((s) => s.trim());
    const re = lhs.split('+').map((s) => s.trim());
    const c = lines[i + 1].split(/\s+/);
    out.push({ name: `${lhs} --> ${rhs}`, r1: re[0], r2: re[1], type: c[0], Ea: Number(c[3]), A: Number(c[4]), b: Number(c[5]), dE: Number(c[6]) });
  }
  return out;
}

function parseRatesLog(file) {
  const text = readFileSync(file, 'utf8');
  // the log echoes each input line before and after variable substitution: take the last match
  const get = (re) => { const m = [...text.matchAll(new RegExp(re.source, 'gm'))]; return m.length ? m[m.length - 1][1] : null; };
  const tce = get(/^react\s+tce\s+(\S+)\s*$/m);
  const pe = get(/^react_modify\s+.*partial_energy\s+(yes|no)\s*$/m);
  const Tnom = Number(get(/^mixture\s+air\s+O2 N2 NO O N\s+vstream\s+\S+\s+\S+\s+\S+\s+temp\s+([0-9.eE+-]+)/m));
  const fnum = Number(get(/^global\s+nrho\s+\S+\s+fnum\s+([0-9.eE+-]+)\s*$/m));
  const box = [...text.matchAll(/^create_box\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s*$/gm)].pop().slice(1).map(Number);
  const vol = (box[1] - box[0]) * (box[3] - box[2]) * (box[5] - box[4]);
  const dt = Number(get(/^timestep\s+([0-9.eE+-]+)\s*$/m));
  const nsteps = Number(get(/^Loop time of \S+ on \d+ procs for (\d+) steps/m));
  const loop = Number(get(/^Loop time of (\S+) on/m));
  // stats rows
  let cols = null; const rows = [];
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim().split(/\s+/);
    if (t[0] === 'Step') { cols = t; continue; }
    if (cols && t.length === cols.length && /^\d+$/.test(t[0])) {
      const r = {}; cols.forEach((c, i) => { r[c] = Number(t[i]); }); rows.push(r);
    } else if (line.startsWith('Loop time')) cols = null;
  }
  const mean = (k) => rows.reduce((s, r) => s + r[k], 0) / rows.length;
  const N = { O2: rows[0]['c_cnt[1]'], N2: rows[0]['c_cnt[2]'], NO: rows[0]['c_cnt[3]'], O: rows[0]['c_cnt[4]'], N: rows[0]['c_cnt[5]'] };
  const tallies = {};
  // counts of 1e6 and more are printed with %g (6 significant digits)
  for (const m of text.matchAll(/^  reaction (.+): ([0-9.eE+]+)\s*$/gm)) tallies[m[1].trim().replace(/\s+/g, ' ')] = Number(m[2]);
  const tceFile = [join(dirname(file), tce), join(HERE, tce)].find(existsSync);
  if (!tceFile) throw new Error(`${file}: cannot find ${tce}`);
  return { file, tce, pe, Tnom, fnum, vol, dt, nsteps, loop, t: dt * nsteps, N, Tmean: mean('c_T'), Trot: mean('c_rtr'), Tvib: mean('c_rtvm'),
    Tfirst: rows[0].c_T, ncollPerStep: mean('Ncoll'), Np: rows[0].Np, tallies, reactions: readTce(tceFile) };
}

function expected(run, r) {
  const T = run.Tmean;
  const k = r.A * T ** r.b * Math.exp(-r.Ea / (KB * T));
  const n1 = run.N[r.r1] * run.fnum / run.vol, n2 = run.N[r.r2] * run.fnum / run.vol;
  return { k, exp: k * n1 * n2 * run.vol * run.t / run.fnum };
}

const files = process.argv.slice(2);
if (!files.length) { console.error('usage: node rates.mjs log.rates.* > rates.md'); process.exit(2); }
const runs = files.map(parseRatesLog);
const order = readTce(join(HERE, 'air.tce')).map((r) => r.name);
const temps = [...new Set(runs.map((r) => r.Tnom))].sort((a, b) => a - b);
const fmtE = (x) => (x >= 1e4 ? x.toExponential(3) : x.toFixed(1));
const out = [];
out.push('# SPARTA heat-bath reaction counts against the Arrhenius rates');
out.push('');
out.push('Five-species air, 20 % each, held at T (react_modify compute_chem_rates yes: reactions are counted,');
out.push('not performed). expected = k(T) n1 n2 V t / fnum (n1^2 for identical reactants), T = mean translational');
out.push('temperature of the run; ratio = count/expected, error = sqrt(count)/expected (Poisson).');
out.push('"split" = the 19 reactions run as two files (air-rates-A.tce, air-rates-B.tce) so that no species pair');
out.push('has two reactions in one run; "full file" = all 19 in one file (SPARTA then overcounts the later');
out.push('reaction of a pair in this counting mode, see air-rates-A.tce).');
out.push('');
for (const T of temps) {
  const at = runs.filter((r) => r.Tnom === T);
  out.push(`## T = ${T} K`);
  out.push('');
  for (const r of at) {
    out.push(`- ${basename(r.file)}: ${r.tce}, partial_energy ${r.pe}; mean T = ${r.Tmean.toFixed(1)} K, Trot = ${r.Trot.toFixed(1)} K, Tvib = ${r.Tvib.toFixed(1)} K; ` +
      `N = ${Object.entries(r.N).map(([s, n]) => `${s} ${n}`).join(', ')}; fnum = ${r.fnum.toPrecision(6)}, V = ${r.vol.toExponential(3)} m^3, ` +
      `t = ${r.nsteps} x ${r.dt} s; ${(2 * r.ncollPerStep / r.Np).toFixed(3)} collisions per particle per step; loop ${r.loop.toFixed(0)} s`);
  }
  out.push('');
  const pes = ['no', 'yes'].filter((pe) => at.some((r) => r.pe === pe));
  const hasFull = at.some((r) => r.tce === 'air.tce');
  let head = '| reaction | k(T) (m^3/s) |';
  let sep = '|---|---|';
  for (const pe of pes) {
    head += ` pe ${pe}: count | expected | ratio ± err |`; sep += '---|---|---|';
    if (hasFull) { head += ` pe ${pe} full file: count | ratio |`; sep += '---|---|'; }
  }
  out.push(head); out.push(sep);
  for (const name of order) {
    let row = `| ${name} |`;
    let kshown = false;
    for (const pe of pes) {
      const split = at.find((r) => r.pe === pe && r.tce !== 'air.tce' && name in r.tallies);
      const full = at.find((r) => r.pe === pe && r.tce === 'air.tce');
      if (!kshown) {
        const any = split || full;
        row += any ? ` ${expected(any, any.reactions.find((x) => x.name === name) || readTce(join(HERE, 'air.tce')).find((x) => x.name === name)).k.toExponential(3)} |` : ' - |';
        kshown = true;
      }
      if (split) {
        const rx = split.reactions.find((x) => x.name === name);
        const e = expected(split, rx).exp; const c = split.tallies[name];
        row += ` ${c} | ${fmtE(e)} | ${(c / e).toFixed(3)} ± ${(Math.sqrt(Math.max(c, 1)) / e).toPrecision(2)} |`;
      } else row += ' - | - | - |';
      if (hasFull) {
        if (full && name in full.tallies) {
          const rx = readTce(join(HERE, 'air.tce')).find((x) => x.name === name);
          const e = expected(full, rx).exp; const c = full.tallies[name];
          row += ` ${c} | ${(c / e).toFixed(3)} |`;
        } else row += ' - | - |';
      }
    }
    out.push(row);
  }
  out.push('');
}
process.stdout.write(out.join('\n') + '\n');
