#!/usr/bin/env bash
# Device check of molecular gases on several GPUs (issue 19): the scaling box of hot N2 with a fast vibration (Zvib 5,
# 3000 K), sampled, on 1 rank and on N ranks (one per GPU): throughput, and the fields' SHA-256 (the internal
# temperatures included), which must be the same. Writes each --json summary to $OUT (or ./bench-out).
# Usage on a device machine with N GPUs: source .device-carry/setup.sh && bash bench/molecular-ranks.sh [N] [STEPS]
set -uo pipefail
out=${OUT:-bench-out}; mkdir -p "$out"
ranks=${1:-2}
steps=${2:-200}
gas='species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]'
for r in 1 "$ranks"; do
  echo "=== $r rank(s)"
  node bin/dsmc.js run scaling-box --set "$gas" --set initial.temperature=3000 --set run.dt=3e-9 --set run.steps="$steps" \
    --set sampling.enabled=true --set sampling.start=$((steps / 2)) --set sampling.interval=1 \
    --ranks "$r" --no-save --json --no-progress > "$out/ranks-$r.json" 2> "$out/ranks-$r.err"
  echo "exit $?"; tail -2 "$out/ranks-$r.err"
  node -e "
    const s = JSON.parse(require('fs').readFileSync('$out/ranks-$r.json', 'utf8').trim().split('\n').pop());
    console.log('ranks', s.ranks, '| particles', s.particles, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3), '| samples', s.samples, '| fieldsSha256', s.fieldsSha256);
  " || true
done
