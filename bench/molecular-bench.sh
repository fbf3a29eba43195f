#!/usr/bin/env bash
# Device benchmark of molecular gases (issue 19), on one GPU: the collide-box benchmark (dsmc bench, 200 timed steps,
# no sampling) with argon, N2 with rotation only, the library's N2 (rotation and Millikan-White vibration) at 273 K,
# and N2 at 3000 K with and without a fast vibration (Zvib 5, so that the quantized exchange runs in many
# collisions). Writes each run's --json summary to $OUT (or ./bench-out) and prints throughput, bytes per particle,
# collisions per particle per step, energy drift and the phase table.
# Usage on the device machine: source .device-carry/setup.sh && bash bench/molecular-bench.sh [PARTICLES] [sampled]
# (sampled: also the scaling box with argon and the library N2 sampled every step, and N2 unsampled, 400 steps)
set -uo pipefail
out=${OUT:-bench-out}; mkdir -p "$out"
particles=${1:-125829120}
node bin/dsmc.js --version
run() { # name, then --set arguments
  local name=$1; shift
  echo "=== $name: dsmc bench --particles $particles $*"
  /usr/bin/time -v node bin/dsmc.js bench --particles "$particles" "$@" --no-save --json > "$out/$name.json" 2> "$out/$name.err"
  echo "exit $?"; grep -E "Maximum resident|Elapsed" "$out/$name.err"; tail -3 "$out/$name.err" | grep -v "Exit status"
  node -e "
    const s = JSON.parse(require('fs').readFileSync('$out/$name.json', 'utf8').trim().split('\n').pop());
    console.log('adapter', s.adapter.description, '| particles', s.particles, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3),
      '| bytes/particle', s.bytesPerParticle.toFixed(1), '| energy drift', s.conservation.energyRelDrift.toExponential(2), '| collisions/particle/step', s.collisionsPerParticleStep.toFixed(4));
    for (const [k, p] of Object.entries(s.phases)) console.log('  ', k.padEnd(12), (p.avgSeconds * 1e3).toFixed(3), 'ms x', p.calls, '=', p.percentOfLoop.toFixed(1), '%');
  " || true
}
hotFast='species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]'
run argon
run n2-rotation --set 'species=[{"use":"N2","vibration":null}]'
run n2-library --set 'species=[{"use":"N2"}]'
run n2-hot-rotation --set 'species=[{"use":"N2","vibration":null}]' --set initial.temperature=3000 --set run.dt=3e-9
run n2-hot-vibration --set "$hotFast" --set initial.temperature=3000 --set run.dt=3e-9
[ "${2:-}" = sampled ] || exit 0
# sampled every step (the rotational and vibrational sums are moments 13 and 14): the scaling box, 400 steps
sampledRun() { # name, then dsmc run arguments
  local name=$1; shift
  echo "=== $name: dsmc run $*"
  node bin/dsmc.js run "$@" --no-save --json --no-progress > "$out/$name.json" 2> "$out/$name.err"
  echo "exit $?"; tail -2 "$out/$name.err"
  node -e "
    const s = JSON.parse(require('fs').readFileSync('$out/$name.json', 'utf8').trim().split('\n').pop());
    console.log('particles', s.particles, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3), '| bytes/particle', s.bytesPerParticle.toFixed(1),
      '| samples', s.samples, '| fields', String(s.fieldsSha256).slice(0, 16), '| ranks', s.ranks, '| sampleKernel', JSON.stringify(s.sampleKernel));
    for (const [k, p] of Object.entries(s.phases)) console.log('  ', k.padEnd(12), (p.avgSeconds * 1e3).toFixed(3), 'ms x', p.calls);
  " || true
}
sampled=(--set run.steps=400 --set sampling.enabled=true --set sampling.start=1 --set sampling.interval=1)
sampledRun argon-sampled scaling-box "${sampled[@]}"
sampledRun n2-sampled scaling-box --set 'species=[{"use":"N2"}]' "${sampled[@]}"
sampledRun n2-unsampled scaling-box --set 'species=[{"use":"N2"}]' --set run.steps=400 --set sampling.enabled=false
