#!/usr/bin/env bash
# Device benchmark of bodies in the flow (issue 16), on one GPU: collide-box with and without a sphere filling
# 10 % of the box, and the Su et al. hypersonic wedge and supersonic block at full size. Writes each run's
# --json summary to $OUT (or ./bench-out) and prints the throughput, memory per particle and phase table.
# Usage on the device machine: source .device-carry/setup.sh && bash bench/bodies-bench.sh [PARTICLES] [STEPS]
set -uo pipefail
out=${OUT:-bench-out}; mkdir -p "$out"
n=${1:-1e8}; steps=${2:-400}
# bench's grid: round(cbrt(N / 10))^3 cells of 1e-5 m; the sphere of 10 % of the box: r = (0.3 / (4 pi))^(1/3) L
read -r side center radius < <(node -e "const n=Math.round(Math.cbrt(Number('$n')/10)); const L=n*1e-5; console.log(n, L/2, Math.cbrt(0.3/(4*Math.PI))*L)")
sphere="[{\"name\":\"sphere\",\"shape\":{\"type\":\"sphere\",\"center\":[$center,$center,$center],\"radius\":$radius,\"subdivisions\":5},\"surface\":{\"model\":\"diffuse\",\"temperature\":273.15}}]"
node bin/dsmc.js --version
run() { # name, then dsmc arguments
  local name=$1; shift
  echo "=== $name: dsmc $*"
  /usr/bin/time -v node bin/dsmc.js "$@" --no-save --json --no-progress > "$out/$name.json" 2> "$out/$name.err"
  echo "exit $?"; grep -E "Maximum resident|Elapsed" "$out/$name.err"; tail -3 "$out/$name.err" | grep -v "Exit status"
  node -e "
    const s = JSON.parse(require('fs').readFileSync('$out/$name.json', 'utf8').trim().split('\n').pop());
    console.log('adapter', s.adapter.description, '| particles', s.particles, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3),
      '| bytes/particle', s.bytesPerParticle.toFixed(1), '| collisions/particle/step', s.collisionsPerParticleStep.toFixed(5), '| timing', s.timing);
    for (const [k, p] of Object.entries(s.phases)) console.log('  ', k.padEnd(12), (p.avgSeconds * 1e3).toFixed(3), 'ms x', p.calls, '=', p.percentOfLoop.toFixed(1), '%');
    console.log('   other', s.otherSeconds.toFixed(3), 's; host', JSON.stringify(s.host));
    for (const b of s.surface?.bodies ?? []) console.log('   body', b.name, 'triangles', b.triangles, 'cd', b.cd, 'force', b.force.map((x) => (x === null ? 'n/a (not sampled)' : x.toExponential(3))).join(' '));
  " || true
}
run collide-box bench --particles "$n" --set run.steps=$steps --set run.stepsPerSubmit=100
run collide-box-sphere bench --particles "$n" --set run.steps=$steps --set run.stepsPerSubmit=100 --set "bodies=$sphere"
run hypersonic-wedge run hypersonic-wedge --set run.steps=$steps --set sampling.start=$((steps / 2))
run supersonic-block run supersonic-block --set run.steps=$steps --set sampling.start=$((steps / 2))
