// Terminal text for the pre-launch check, and the number formats its messages share.
import type { PrelaunchReport } from './prelaunch.js';

// A number with 3 significant digits, in exponent form when very small or large (e.g. 1.89e-5).
export function sci(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? 'infinite' : String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e6) return String(Number(x.toPrecision(3)));
  const [mant, exp] = x.toExponential(2).split('e');
  return `${Number(mant)}e${Number(exp)}`;
}

// A byte count in binary units with the exact count, e.g. `1.50 GiB (1610612736 bytes)`.
export function bytesText(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(2)} ${units[u]} (${n} bytes)`;
}

// Renders a report for the terminal: verdict, estimates, then errors and warnings one per line.
export function formatPrelaunch(report: PrelaunchReport): string {
  const e = report.estimates;
  const verdict = report.ok ? 'OK' : 'REFUSED';
  const lines = [
    `Pre-launch check: ${verdict} (${report.errors.length} error(s), ${report.warnings.length} warning(s))`,
    `  fnum                 ${sci(e.fnum)} real molecules per simulated particle`,
    `  initial particles    ${Math.round(e.particles)} (${Math.round(e.referenceParticles)} with the box at the reference density)`,
    `  particles per cell   ${sci(e.particlesPerCell)} at the reference density`,
    `  mean free path       ${sci(e.meanFreePath)} m`,
    `  mean collision time  ${sci(e.meanCollisionTime)} s`,
    `  cell residence time  ${sci(e.cellResidenceTime)} s`,
    `  GPU buffers          ${bytesText(e.totalBufferBytes)}, ${sci(e.bytesPerParticle)} bytes per particle`,
    ...(e.rotation ?? []).map((r) =>
      `  rotation             ${r.species}: Zrot ${sci(r.zRot)}, relaxes in about ${sci(r.relaxationCollisions)} collisions (${sci(r.relaxationTime)} s)`),
    ...(e.vibration ?? []).map((v) =>
      `  vibration            ${v.species}: theta_v ${sci(v.theta)} K, Zvib ${sci(v.zVib)} at the reference temperature, ${sci(v.quantaAtReference)} quanta per molecule in equilibrium there, relaxes in about ${sci(v.relaxationTime)} s`),
    ...(e.reactions ? [`  reactions            ${e.reactions.reactions}; hottest ${sci(e.reactions.hottest.temperature)} K (${e.reactions.hottest.source}): ` +
      `dissociations make about ${sci(e.reactions.productsPerStep)} particles per step at first, at most ${sci(e.reactions.mostProducts)} in all (one per dissociable molecule)`] : []),
  ];
  for (const f of report.errors) lines.push(`ERROR [${f.code}] ${f.field}: ${f.message}`);
  for (const f of report.warnings) lines.push(`warning [${f.code}] ${f.field}: ${f.message}`);
  return lines.join('\n');
}
