#!/usr/bin/env node
// Side-by-side comparison of the adiabatic air box (issue 28): SPARTA runs against ours.
// Plain Node, no dependencies.
//
// usage:
//   node compare.mjs [--ref LABEL=a.csv,b.csv,...]... [--ours x.csv[,y.csv...]] [--times t1,t2,...]
//                    [--csv out.csv] [--np-ours N] [--quantities x_O2,x_N,T,...] [--pool] [--window W] [--no-floor]
//   node compare.mjs a.csv b.csv ...            (all files one SPARTA group labelled "sparta")
//
// CSV columns (header names, any order, extra columns ignored):
//   step,time,N_O2,N_N2,N_NO,N_O,N_N,T,Trot,Tvib
// Each --ref group is one SPARTA variant run with different seeds; their spread is the noise.
// --ours may list several files (seeds of our solver): their mean is compared and their own
// spread enters the noise when there are at least two.
//
// Noise model (per time and quantity): sd_ref = sample standard deviation over the seeds of the
// group (the seed-to-seed spread of ONE run). The difference ours - mean(ref) then has
//   sigma = sqrt(sd_ref^2/n_ref + sd_ours^2/n_ours)
// where, with one file of ours, sd_ours = sd_ref * sqrt(Np_ref/Np_ours) (noise of a run scales
// with 1/sqrt(particles); Np = sum of the species counts, or --np-ours N if our counts are not
// simulated particles). z = (ours - ref)/sigma.
// sd from n seeds has only n-1 degrees of freedom, so z follows Student's t with n-1 dof (plus
// those of ours), not a normal law: the summary prints the two-sided 99 % limit of t for that
// dof. Many times and quantities are compared (and they are correlated), so one |z| near that
// limit is not yet a failure; several, or a systematic sign over time, are.
// --window W: the seed-to-seed variance at t is averaged over the output rows in [t/W, t*W]
// (default 1.5; 1 = the single time only). The dof printed are those of one time (conservative).
// --no-floor: do not raise sd to the particle-count floor (see floorSd below; with few seeds the
// measured spread can by chance be far below it).
// --pool: use one noise estimate for all --ref groups (their variances averaged, dof summed);
// fair when the groups are the same system with the same particle count (pe-yes / pe-no).
import { readFileSync, writeFileSync } from 'node:fs';

const SPECIES = ['O2', 'N2', 'NO', 'O', 'N'];
const ALL_Q = ['x_O2', 'x_N2', 'x_NO', 'x_O', 'x_N', 'T', 'Trot', 'Tvib'];
const DEFAULT_TIMES = [0, 1e-8, 2e-8, 5e-8, 1e-7, 2e-7, 3e-7, 5e-7, 7e-7, 1e-6, 1.5e-6, 2e-6, 3e-6, 5e-6, 7e-6, 1e-5];

function die(msg) { console.error(msg); process.exit(2); }

function parseArgs(argv) {
  const a = { refs: [], ours: [], times: null, csv: null, npOurs: null, quantities: ALL_Q, pool: false };
  const loose = [];
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const next = () => { if (i + 1 >= argv.length) die(`${k} needs a value`); return argv[++i]; };
    if (k === '--ref') {
      const v = next();
      const eq = v.indexOf('=');
      if (eq < 0) die('--ref LABEL=file1,file2,...');
      a.refs.push({ label: v.slice(0, eq), files: v.slice(eq + 1).split(',').filter(Boolean) });
    } else if (k === '--ours') a.ours.push(...next().split(',').filter(Boolean));
    else if (k === '--times') a.times = next().split(',').map(Number);
    else if (k === '--csv') a.csv = next();
    else if (k === '--np-ours') a.npOurs = Number(next());
    else if (k === '--quantities') a.quantities = next().split(',');
    else if (k === '--pool') a.pool = true;
    else if (k === '--window') a.window = Number(next());
    else if (k === '--no-floor') a.noFloor = true;
    else if (k === '-h' || k === '--help') { console.log(readFileSync(new URL(import.meta.url)).toString().split('\n').slice(1, 25).join('\n')); process.exit(0); }
    else if (k.startsWith('--')) die(`unknown option ${k}`);
    else loose.push(k);
  }
  if (loose.length) a.refs.push({ label: 'sparta', files: loose });
  if (!a.refs.length && !a.ours.length) die('nothing to compare: give --ref LABEL=files and/or --ours files');
  return a;
}

function readCsv(file) {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/).filter((l) => l.trim() && !l.startsWith('#'));
  const head = lines[0].split(',').map((s) => s.trim());
  for (const c of ['time', ...SPECIES.map((s) => `N_${s}`), 'T', 'Trot', 'Tvib']) {
    if (!head.includes(c)) die(`${file}: no column ${c}`);
  }
  const rows = lines.slice(1).map((l) => {
    const v = l.split(',').map(Number);
    const r = {};
    head.forEach((h, i) => { r[h] = v[i]; });
    const tot = SPECIES.reduce((s, sp) => s + r[`N_${sp}`], 0);
    for (const sp of SPECIES) r[`x_${sp}`] = r[`N_${sp}`] / tot;
    r.Np = tot;
    return r;
  }).sort((p, q) => p.time - q.time);
  return { file, rows };
}

function interp(rows, t, q) {
  if (t < rows[0].time - 1e-15 || t > rows[rows.length - 1].time * (1 + 1e-9) + 1e-15) return NaN;
  let lo = 0, hi = rows.length - 1;
  while (hi - lo > 1) { const m = (lo + hi) >> 1; if (rows[m].time <= t) lo = m; else hi = m; }
  const a = rows[lo], b = rows[hi];
  if (b.time === a.time) return a[q];
  const w = Math.min(1, Math.max(0, (t - a.time) / (b.time - a.time)));
  return a[q] + w * (b[q] - a[q]);
}

function stats(vals) {
  const v = vals.filter(Number.isFinite);
  const n = v.length;
  if (!n) return { n: 0, mean: NaN, sd: NaN };
  const mean = v.reduce((s, x) => s + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : NaN;
  return { n, mean, sd };
}

// mean at t; sd = seed-to-seed spread, its variance averaged over the output times of the first
// run that lie within [t/W, t*W] (W = --window, default 1.5): the spread of a few seeds at a single
// time fluctuates a lot (seeds' curves cross), the true spread varies slowly with time.
let WINDOW = 1.5;
function groupAt(group, t, q) {
  const at = stats(group.runs.map((r) => interp(r.rows, t, q)));
  if (at.n < 2 || WINDOW <= 1 || t <= 0) return at;
  const ts = group.runs[0].rows.map((r) => r.time).filter((x) => x >= t / WINDOW && x <= t * WINDOW);
  if (!ts.includes(t)) ts.push(t);
  const vars = ts.map((x) => stats(group.runs.map((r) => interp(r.rows, x, q))).sd ** 2).filter(Number.isFinite);
  return { ...at, sd: Math.sqrt(vars.reduce((a, v) => a + v, 0) / vars.length) };
}
// lower bound of one run's noise from its particle count (used unless --no-floor): a mole
// fraction at least binomial, sqrt(x(1-x)/Np); T at least T sqrt(2/(3 Np)) (mean of 3 Np squared
// velocity components); Trot and Tvib at least T sqrt(1/Nmol) (2 dof per molecule, 1 for vib.)
let FLOOR = true;
function floorSd(group, t, q, mean) {
  const np = stats(group.runs.map((r) => interp(r.rows, t, 'Np'))).mean;
  const nmol = stats(group.runs.map((r) => interp(r.rows, t, 'N_O2') + interp(r.rows, t, 'N_N2') + interp(r.rows, t, 'N_NO'))).mean;
  if (q.startsWith('x_')) return Math.sqrt(Math.max(mean * (1 - mean), 0) / np);
  if (q === 'T') return mean * Math.sqrt(2 / (3 * np));
  if (q === 'Trot' || q === 'Tvib') return nmol > 0 ? mean * Math.sqrt(1 / nmol) : 0;
  return 0;
}
function groupNoise(group, t, q) {
  const g = groupAt(group, t, q);
  if (FLOOR && Number.isFinite(g.sd)) {
    const f = floorSd(group, t, q, g.mean);
    if (f > g.sd) return { ...g, sd: f, floored: true };
  }
  return g;
}

function fmtQ(q, v) {
  if (!Number.isFinite(v)) return '-';
  if (q.startsWith('x_')) return v.toFixed(4);
  return v.toFixed(0);
}
function fmtSd(q, v) {
  if (!Number.isFinite(v)) return '';
  if (q.startsWith('x_')) return v.toFixed(4);
  return v.toFixed(0);
}
const pad = (s, n) => String(s).padStart(n);
// two-sided 99 % quantiles of Student's t
const T99 = [NaN, 63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169, 3.106, 3.055, 3.012, 2.977, 2.947,
  2.921, 2.898, 2.878, 2.861, 2.845];
const t99 = (dof) => (dof < 1 ? NaN : dof < T99.length ? T99[dof] : dof < 30 ? 2.75 : 2.576);
// z of a difference; NaN without a noise estimate (a group needs at least two seeds)
function zOf(d, sig) {
  if (!Number.isFinite(sig) || !Number.isFinite(d)) return NaN;
  if (sig > 0) return d / sig;
  return Math.abs(d) < 1e-12 ? 0 : NaN;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.window !== undefined) WINDOW = args.window;
  if (args.noFloor) FLOOR = false;
  const groups = args.refs.map((g) => ({ label: g.label, runs: g.files.map(readCsv) }));
  const ours = args.ours.length ? { label: 'ours', runs: args.ours.map(readCsv) } : null;
  const all = [...groups, ...(ours ? [ours] : [])];
  const tmax = Math.min(...all.flatMap((g) => g.runs.map((r) => r.rows[r.rows.length - 1].time)));
  const tmin = Math.max(...all.flatMap((g) => g.runs.map((r) => r.rows[0].time)));
  const times = (args.times || DEFAULT_TIMES).filter((t) => t >= tmin - 1e-15 && t <= tmax * (1 + 1e-9));
  const Q = args.quantities;

  console.log('Adiabatic air box from 20,000 K: mole fractions x and temperatures (K) against time');
  for (const g of all) console.log(`  ${g.label}: ${g.runs.map((r) => r.file).join(', ')}`);
  console.log('  rows: mean over the seeds of a group, "sd" = seed-to-seed standard deviation of one run');
  if (ours) console.log('  z = (ours - group mean)/sigma, sigma = sqrt(sd^2/n_group + sd_ours^2/n_ours) (see the header of compare.mjs)');
  else if (groups.length > 1) console.log(`  z = (${groups[1].label} - ${groups[0].label})/sqrt(sd1^2/n1 + sd2^2/n2)`);
  console.log('');

  const W = 9;
  const header = pad('', 14) + Q.map((q) => pad(q, W)).join('');
  const csvOut = [['time', 'source', ...Q].join(',')];
  const worst = {}; // key label -> q -> {z, t}

  const noteWorst = (label, q, z, t, d, dof) => {
    worst[label] ??= {};
    if (!worst[label][q] || Math.abs(z) > Math.abs(worst[label][q].z)) worst[label][q] = { z, t, d, dof };
  };

  for (const t of times) {
    console.log(`t = ${t.toExponential(2)} s`);
    console.log(header);
    const gstats = groups.map((g) => Object.fromEntries(Q.map((q) => [q, groupNoise(g, t, q)])));
    if (args.pool && groups.length > 1) {
      for (const q of Q) {
        const ok = gstats.filter((s) => s[q].n > 1 && Number.isFinite(s[q].sd));
        const dof = ok.reduce((a, s) => a + s[q].n - 1, 0);
        const v = ok.reduce((a, s) => a + (s[q].n - 1) * s[q].sd ** 2, 0) / dof;
        for (const s of gstats) { s[q].sdOwn = s[q].sd; s[q].sd = Math.sqrt(v); s[q].dof = dof; }
      }
    }
    const npAt = (g) => stats(g.runs.map((r) => interp(r.rows, t, 'Np'))).mean;
    groups.forEach((g, i) => {
      console.log(pad(g.label, 14) + Q.map((q) => pad(fmtQ(q, gstats[i][q].mean), W)).join(''));
      if (g.runs.length > 1) console.log(pad('sd', 14) + Q.map((q) => pad(fmtSd(q, gstats[i][q].sd), W)).join(''));
      csvOut.push([t, g.label, ...Q.map((q) => gstats[i][q].mean)].join(','));
      if (g.runs.length > 1) csvOut.push([t, `${g.label}.sd`, ...Q.map((q) => gstats[i][q].sd)].join(','));
    });
    if (ours) {
      const os = Object.fromEntries(Q.map((q) => [q, groupAt(ours, t, q)]));
      console.log(pad('ours', 14) + Q.map((q) => pad(fmtQ(q, os[q].mean), W)).join(''));
      if (ours.runs.length > 1) console.log(pad('sd', 14) + Q.map((q) => pad(fmtSd(q, os[q].sd), W)).join(''));
      csvOut.push([t, 'ours', ...Q.map((q) => os[q].mean)].join(','));
      const npOurs = args.npOurs ?? npAt(ours);
      groups.forEach((g, i) => {
        const zs = Q.map((q) => {
          const r = gstats[i][q];
          let sdO = os[q].sd, nO = os[q].n;
          if (!(nO > 1)) { sdO = r.sd * Math.sqrt(npAt(g) / npOurs); nO = 1; }
          const sig = Math.sqrt(r.sd ** 2 / r.n + sdO ** 2 / nO);
          const d = os[q].mean - r.mean;
          const z = zOf(d, sig);
          if (Number.isFinite(z)) noteWorst(g.label, q, z, t, d, (r.dof ?? r.n - 1) + (os[q].n > 1 ? os[q].n - 1 : 0));
          return z;
        });
        console.log(pad(`z vs ${g.label}`, 14) + zs.map((z) => pad(Number.isFinite(z) ? z.toFixed(1) : '-', W)).join(''));
        csvOut.push([t, `z_vs_${g.label}`, ...zs].join(','));
      });
    } else if (groups.length > 1) {
      const [a, b] = gstats;
      const zs = Q.map((q) => {
        const sig = Math.sqrt(a[q].sd ** 2 / a[q].n + b[q].sd ** 2 / b[q].n);
        const d = b[q].mean - a[q].mean;
        const z = zOf(d, sig);
        if (Number.isFinite(z)) noteWorst(`${groups[1].label}-vs-${groups[0].label}`, q, z, t, d, a[q].dof ?? (a[q].n + b[q].n - 2));
        return z;
      });
      console.log(pad('z', 14) + zs.map((z) => pad(Number.isFinite(z) ? z.toFixed(1) : '-', W)).join(''));
    }
    console.log('');
  }

  const keys = Object.keys(worst);
  if (!keys.length && (ours || groups.length > 1)) {
    console.log('No noise estimate: give at least two seeds in a --ref group (and see --ours).');
  }
  if (keys.length) {
    console.log('Largest differences relative to the noise (over the times above):');
    for (const k of keys) {
      console.log(`  ${k}:`);
      for (const q of Q) {
        const w = worst[k][q];
        if (!w) continue;
        console.log(`    ${q.padEnd(5)} z = ${w.z.toFixed(1).padStart(6)} at t = ${w.t.toExponential(2)} s (difference ${q.startsWith('x_') ? w.d.toFixed(4) : w.d.toFixed(0) + ' K'})`);
      }
      const zmax = Math.max(...Q.map((q) => Math.abs(worst[k][q]?.z ?? 0)));
      const dof = Math.min(...Q.map((q) => worst[k][q]?.dof ?? Infinity));
      const lim = t99(dof);
      console.log(`    max |z| = ${zmax.toFixed(1)}; noise dof = ${dof}, two-sided 99 % limit of t = ${lim.toFixed(2)}: ` +
        (zmax <= lim ? 'within noise' : 'NOT within noise at the 99 % level (see the z rows: one outlier or a trend?)'));
    }
  }
  if (args.csv) { writeFileSync(args.csv, csvOut.join('\n') + '\n'); console.log(`wrote ${args.csv}`); }
}

main();
