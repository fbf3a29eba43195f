// Per run and GPU: the mean SM clock (MHz), power (W) and the throttle reasons seen while the run's loop could run,
// from nvidia-smi's CSV samples (timestamp, index, clocks.sm, clocks.mem, power.draw, temperature, throttle reasons)
// and the bench's start/end marks ("TAG start HH:MM:SS.N" / "TAG end ..."). Only GPUs drawing more than 150 W are
// listed (busy ones).
// Usage: node bench/clock-report.mjs smi.csv marks.txt
import { readFileSync } from 'node:fs';
const [smiFile, marksFile] = process.argv.slice(2);
/** Seconds since midnight of a "HH:MM:SS.fff" time (the date part, if any, dropped). */
const secondsOf = (t) => { const [h, m, s] = t.trim().split(' ').pop().split(':').map(Number); return 3600 * h + 60 * m + s; };
const samples = readFileSync(smiFile, 'utf8').trim().split('\n').map((l) => l.split(',').map((x) => x.trim()))
  .filter((f) => f.length >= 7 && !Number.isNaN(Number(f[1])))
  .map(([ts, gpu, sm, mem, power, temp, reasons]) => ({ t: secondsOf(ts), gpu: Number(gpu), sm: parseFloat(sm), mem: parseFloat(mem), power: parseFloat(power), temp: Number(temp), reasons }));
const marks = new Map();
for (const line of readFileSync(marksFile, 'utf8').trim().split('\n')) {
  const [tag, what, at] = line.split(' ');
  marks.set(`${tag} ${what}`, secondsOf(at));
}
for (const tag of new Set([...marks.keys()].map((k) => k.split(' ')[0]))) {
  const from = marks.get(`${tag} start`), to = marks.get(`${tag} end`);
  const inRun = samples.filter((s) => s.t >= from && s.t <= to && s.power > 150);
  const gpus = [...new Set(inRun.map((s) => s.gpu))].sort();
  const parts = gpus.map((g) => {
    const mine = inRun.filter((s) => s.gpu === g);
    const mean = (k) => mine.reduce((a, s) => a + s[k], 0) / mine.length;
    const reasons = [...new Set(mine.map((s) => s.reasons))].join('/');
    return `GPU ${g}: ${mine.length} samples, SM ${mean('sm').toFixed(0)} MHz (min ${Math.min(...mine.map((s) => s.sm))}), ${mean('power').toFixed(0)} W, ${Math.max(...mine.map((s) => s.temp))} C, reasons ${reasons}`;
  });
  console.log(`${tag}: ${parts.join('; ') || 'no busy GPU sampled'}`);
}
