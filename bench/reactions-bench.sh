#!/usr/bin/env bash
# Device benchmark of gas-phase reactions (issue 28), on one GPU: the collide-box benchmark (dsmc bench, 200 timed
# steps after 20 warm-up steps, no sampling) with five-species air (O2, N2, NO, O, N; 79 % N2, 21 % O2) at 10,000 K:
# without reactions, with the air5 reactions counted only (reactions.perform false), and reacting; and argon at the
# benchmark's own conditions for reference. Each run's --json summary goes to $OUT (or ./bench-out); prints throughput,
# bytes per particle, collisions and reactions per particle and step, energy drift (with the chemical energy) and
# the phase table. The reacting runs twice each, interleaved with the plain runs (the card's clocks drift).
# Usage on the device machine: source .device-carry/setup.sh && bash bench/reactions-bench.sh [PARTICLES] [REPEATS]
set -uo pipefail
out=${OUT:-bench-out}; mkdir -p "$out"
particles=${1:-125829120}
repeats=${2:-2}
run() { # name, then --set arguments
  local name=$1; shift
  echo "=== $name: dsmc bench --particles $particles $*"
  /usr/bin/time -v node bin/dsmc.js bench --particles "$particles" "$@" --no-save --json > "$out/$name.json" 2> "$out/$name.err"
  echo "exit $?"; grep -E "Maximum resident|Elapsed" "$out/$name.err"; tail -3 "$out/$name.err" | grep -v "Exit status"
  node -e "
    const s = JSON.parse(require('fs').readFileSync('$out/$name.json', 'utf8').trim().split('\n').pop());
    const rx = s.reactions ? s.reactions.reactions.reduce((a, r) => a + r.count, 0) : 0;
    console.log('adapter', s.adapter.description, '| particles', s.particles, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3),
      '| bytes/particle', s.bytesPerParticle.toFixed(1), '| energy drift', s.conservation.energyRelDrift?.toExponential(2),
      '| collisions/particle/step', s.collisionsPerParticleStep.toFixed(4), '| reactions/particle/step', (rx / s.particleSteps).toExponential(3));
    for (const [k, p] of Object.entries(s.phases)) console.log('  ', k.padEnd(12), (p.avgSeconds * 1e3).toFixed(3), 'ms x', p.calls, '=', p.percentOfLoop.toFixed(1), '%');
  " || true
}
air=(--set 'species=[{"use":"O2"},{"use":"N2"},{"use":"NO"},{"use":"O"},{"use":"N"}]' --set initial.temperature=10000
  --set 'initial.fractions={"N2":0.79,"O2":0.21}' --set run.dt=2e-9)
run argon
for r in $(seq 1 "$repeats"); do
  run "air-plain-$r" "${air[@]}"
  run "air-counted-$r" "${air[@]}" --set 'reactions={"use":"air5","perform":false}'
  run "air-reacting-$r" "${air[@]}" --set 'reactions={"use":"air5"}'
done
