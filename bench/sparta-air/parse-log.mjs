#!/usr/bin/env node
// Turn the stats of a SPARTA log written by in.air-relax into CSV.
// usage: node parse-log.mjs log.relax... [> out.csv]
// Columns: step,time,N_O2,N_N2,N_NO,N_O,N_N,T,Trot,Tvib  then extras:
//   Tvib_O2,Tvib_N2,Tvib_NO  per-species vibrational temperature (discrete levels:
//                            theta/ln(1+1/Ibar), Ibar = mean level; SPARTA compute tvib/grid)
//   TvibE                    one common vibrational temperature whose harmonic-oscillator
//                            energy equals the molecules' total vibrational energy
//   Np,Ncoll,Nreact          particles, collisions and reactions in that step
//   Etot                     thermal energy per unit volume (J/m^3): translational + rotational
//                            + vibrational (no chemical energy)
// T    = translational temperature of all particles (SPARTA compute temp)
// Trot = (2/kB) sum(erot)/sum(rotdof) over the molecules (compute grid ... trot)
// Tvib = count-weighted mean of Tvib_O2, Tvib_N2, Tvib_NO (compute tvib/grid on one group of
//        all molecules), i.e. SPARTA's definition for a mixture
// Counts are simulated particles (one cell holds the whole box); multiply by fnum for real ones.
import { readFileSync } from 'node:fs';

const KB = 1.380649e-23;
const THETA = { O2: 2256.0, N2: 3371.0, NO: 2719.0 };

export function parseSpartaLog(text) {
  const lines = text.split(/\r?\n/);
  const rows = [];
  let cols = null;
  let fnum = null, vol = null;
  for (const line of lines) {
    const mf = line.match(/^global\s+nrho\s+\S+\s+fnum\s+([0-9.eE+-]+)\s*$/);
    if (mf) fnum = Number(mf[1]);
    const mb = line.match(/^create_box\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s*$/);
    if (mb) { const v = mb.slice(1).map(Number); vol = (v[1] - v[0]) * (v[3] - v[2]) * (v[5] - v[4]); }
    const t = line.trim().split(/\s+/);
    if (t[0] === 'Step') { cols = t; continue; }
    if (!cols) continue;
    if (t.length !== cols.length || !/^\d+$/.test(t[0])) {
      if (line.startsWith('Loop time')) cols = null;
      continue;
    }
    const r = {};
    cols.forEach((c, i) => { r[c] = Number(t[i]); });
    // a second run repeats the last step of the first: keep the first copy
    if (rows.length && rows[rows.length - 1].Step === r.Step) continue;
    rows.push(r);
  }
  return { rows, fnum, vol };
}

function tvibOf(meanE, theta) {
  if (!(meanE > 0)) return 0;
  const ibar = meanE / (KB * theta);
  return theta / Math.log(1 + 1 / ibar);
}

// common T with sum_s N_s k theta_s/(exp(theta_s/T)-1) = Evib (bisection in log T)
function tvibEnergy(counts, totalE) {
  if (!(totalE > 0)) return 0;
  const f = (T) => Object.keys(THETA).reduce((a, s) => a + counts[s] * KB * THETA[s] / Math.expm1(THETA[s] / T), 0) - totalE;
  let lo = 10, hi = 1e7;
  for (let i = 0; i < 200; i++) {
    const mid = Math.sqrt(lo * hi);
    if (f(mid) > 0) hi = mid; else lo = mid;
  }
  return Math.sqrt(lo * hi);
}

export function toRecords(parsed) {
  const { rows, fnum, vol } = parsed;
  return rows.map((r) => {
    const N = { O2: r['c_cnt[1]'], N2: r['c_cnt[2]'], NO: r['c_cnt[3]'], O: r['c_cnt[4]'], N: r['c_cnt[5]'] };
    // c_rgi: erot_O2 evib_O2 erot_N2 evib_N2 erot_NO evib_NO (means per particle, J)
    const erot = { O2: r['c_rgi[1]'], N2: r['c_rgi[3]'], NO: r['c_rgi[5]'] };
    const evib = { O2: r['c_rgi[2]'], N2: r['c_rgi[4]'], NO: r['c_rgi[6]'] };
    const Ev = N.O2 * evib.O2 + N.N2 * evib.N2 + N.NO * evib.NO;
    const Er = N.O2 * erot.O2 + N.N2 * erot.N2 + N.NO * erot.NO;
    const Np = r.Np;
    const Etr = 1.5 * KB * r.c_T * Np;
    return {
      step: r.Step, time: r.Time,
      N_O2: N.O2, N_N2: N.N2, N_NO: N.NO, N_O: N.O, N_N: N.N,
      T: r.c_T, Trot: r.c_rtr, Tvib: r.c_rtvm,
      Tvib_O2: r['c_rtv[1]'], Tvib_N2: r['c_rtv[2]'], Tvib_NO: r['c_rtv[3]'],
      TvibE: tvibEnergy(N, Ev),
      Np, Ncoll: r.Ncoll, Nreact: r.Nreact,
      Etot: fnum && vol ? (Etr + Er + Ev) * fnum / vol : NaN,
      // consistency: per-species Tvib recomputed from the mean energies
      _tvO2: tvibOf(evib.O2, THETA.O2),
    };
  });
}

export const COLUMNS = ['step', 'time', 'N_O2', 'N_N2', 'N_NO', 'N_O', 'N_N', 'T', 'Trot', 'Tvib',
  'Tvib_O2', 'Tvib_N2', 'Tvib_NO', 'TvibE', 'Np', 'Ncoll', 'Nreact', 'Etot'];

function fmt(v) {
  if (Number.isInteger(v)) return String(v);
  return Number(v.toPrecision(8)).toString();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = process.argv.slice(2);
  if (files.length !== 1) {
    console.error('usage: node parse-log.mjs LOGFILE > out.csv');
    process.exit(2);
  }
  const recs = toRecords(parseSpartaLog(readFileSync(files[0], 'utf8')));
  if (recs.length === 0) { console.error(`no stats rows in ${files[0]}`); process.exit(1); }
  // sanity: Tvib_O2 from the mean energy agrees with SPARTA's tvib/grid (same formula)
  for (const r of recs) {
    if (r.N_O2 > 0 && Math.abs(r._tvO2 - r.Tvib_O2) > 1e-6 * r.Tvib_O2 + 1e-6) {
      console.error(`warning: step ${r.step}: Tvib_O2 ${r.Tvib_O2} vs from energy ${r._tvO2}`);
      break;
    }
  }
  const out = [COLUMNS.join(',')];
  for (const r of recs) out.push(COLUMNS.map((c) => fmt(r[c])).join(','));
  process.stdout.write(out.join('\n') + '\n');
}
