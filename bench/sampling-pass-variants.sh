#!/usr/bin/env bash
# Device benchmark of the sampling pass's variants (issue 17), on one GPU: the scaling box (125.8M particles) and the
# 102M supersonic cavity sampled every step with sample.wgsl's `sample` (the default) and `sample_tuned` under
# DSMC_SAMPLE_PASS=none|fast|early|fast,early; prints the sample phase per pass and the fields' hash of each (all equal).
# Usage on the device machine: source .device-carry/setup.sh && bash bench/sampling-pass-variants.sh [STEPS]
set -uo pipefail
steps=${1:-200}
cavity=(--set 'grid.cells=[1600,1600,2]' --set 'grid.cellSize=[5e-6,5e-6,5e-6]' --set run.dt=7.5e-10)
sampled=(--set run.steps=$steps --set sampling.enabled=true --set sampling.start=1 --set sampling.interval=1)
for c in scaling-box supersonic-cavity; do
  extra=(); [ "$c" = supersonic-cavity ] && extra=("${cavity[@]}")
  for v in default none fast early fast,early; do
    pass=$v; [ "$v" = default ] && pass=
    DSMC_SAMPLE_PASS=$pass node bin/dsmc.js run "$c" "${extra[@]}" "${sampled[@]}" --no-save --json --no-progress 2>/dev/null | tail -1 | node -e "
      const s = JSON.parse(require('fs').readFileSync(0, 'utf8'));
      const p = s.phases.sample;
      console.log('$c'.padEnd(18), '$v'.padEnd(11), 'sample', (p.avgSeconds * 1e3).toFixed(3), 'ms x', p.calls, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3), '| fields', s.fieldsSha256.slice(0, 16));
    " || echo "$c $v failed"
  done
done
