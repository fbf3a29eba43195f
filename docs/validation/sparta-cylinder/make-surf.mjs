// Writes data.cyl, SPARTA's 2D surface file of the cylinder exactly as dsmc meshes it (its 64 side vertices, lines
// ordered so that the outward normal (0,0,1) x (p2 - p1) points into the gas). Run from this folder after npx tsc.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseCase } from '../../../out/src-main/common/case-schema.js';
import { buildBodyTables } from '../../../out/src-main/solver/body-tables.js';
const c = parseCase(JSON.parse(readFileSync(process.argv[2] ?? 'cyl.json', 'utf8')));
const b = buildBodyTables(c, 300);
const [cx, cy] = c.bodies[0].shape.center; const R = c.bodies[0].shape.radius;
const pts = new Map();
for (let i = 0; i < b.tris.length; i += 3) pts.set(`${b.tris[i].toFixed(12)},${b.tris[i+1].toFixed(12)}`, [b.tris[i], b.tris[i+1]]);
let poly = [...pts.values()].filter(([x, y]) => Math.hypot(x - cx, y - cy) > 0.5 * R);
poly.sort((p, q) => Math.atan2(p[1] - cy, p[0] - cx) - Math.atan2(q[1] - cy, q[0] - cx));
const n = poly.length;
let s = `cylinder of dsmc's mesh\n\n${n} points\n${n} lines\n\nPoints\n\n`;
poly.forEach(([x, y], i) => { s += `${i + 1} ${x.toPrecision(17)} ${y.toPrecision(17)}\n`; });
s += '\nLines\n\n';
for (let i = 0; i < n; i++) s += `${i + 1} ${((i + 1) % n) + 1} ${i + 1}\n`;
writeFileSync('data.cyl', s);
console.log(n, 'points');
