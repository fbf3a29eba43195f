#!/usr/bin/env bash
# Cost of sampling wall hits (the domain faces' surface sums, body.wgsl sample_hit) in the move phase: collide-box
# (specular walls) with sampling off and on (every step). Prints the move phase and the throughput of each.
# Usage on the device machine: source .device-carry/setup.sh && bash bench/wall-sampling-bench.sh [PARTICLES]
set -uo pipefail
n=${1:-1e8}
for sampling in false true; do
  echo "=== sampling.enabled=$sampling"
  node bin/dsmc.js bench --particles "$n" --set run.steps=400 --set run.stepsPerSubmit=100 --set sampling.enabled=$sampling --no-save --json --no-progress 2>/dev/null |
    tail -1 | node -e "let t='';process.stdin.on('data',d=>t+=d).on('end',()=>{const s=JSON.parse(t);
      console.log('particles', s.particles, 'particle-steps/s', s.particleStepsPerSecond.toExponential(3));
      for (const [k, p] of Object.entries(s.phases)) console.log('  ', k.padEnd(8), (p.avgSeconds * 1e3).toFixed(3), 'ms x', p.calls);
      console.log('   loop', s.seconds.toFixed(2), 's, other', s.otherSeconds.toFixed(2), 's, host', JSON.stringify(s.host));
      for (const f of s.surface?.faces ?? []) console.log('   face', f.face, 'pressure', f.pressure, 'Pa');})"
done
