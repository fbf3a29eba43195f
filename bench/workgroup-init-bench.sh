#!/usr/bin/env bash
# Device A/B of Dawn's zero-fill of workgroup memory (issue 24): the scaling box (125.8M particles, STEPS steps,
# unsampled) on 1 rank and on N ranks with the default and with DSMC_SKIP_WORKGROUP_INIT=1 (Dawn's
# disable_workgroup_init: no store and barrier per workgroup before each dispatch), interleaved, REPEATS times; and the
# reacting air collide box of bench/reactions-bench.sh with both. Prints one line per run (throughput, fields hash,
# phase times per step); summaries in $OUT/runs.
# Usage: source .device-carry/setup.sh && bash bench/workgroup-init-bench.sh N STEPS REPEATS
set -uo pipefail
out=${OUT:-bench-out}; mkdir -p "$out/runs"
n=${1:-2}; steps=${2:-400}; repeats=${3:-2}
line() {
  node -e "
    const s = JSON.parse(require('fs').readFileSync('$1', 'utf8').trim().split('\n').pop());
    const phases = Object.entries(s.phases ?? {}).map(([k, p]) => k + ' ' + (1000 * p.totalSeconds / s.steps).toFixed(3)).join(', ');
    console.log('$2', '| ranks', s.ranks ?? 1, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3), '| fields', String(s.fieldsSha256).slice(0, 16), '| ms per step:', phases);
  " 2>&1 || tail -3 "${1%.json}.err"
}
run() { # tag, skip (0/1), then the dsmc arguments
  local tag=$1 skip=$2; shift 2
  DSMC_SKIP_WORKGROUP_INIT=$skip timeout 300 node bin/dsmc.js "$@" --no-save --json --no-progress > "$out/runs/$tag.json" 2> "$out/runs/$tag.err"
  line "$out/runs/$tag.json" "$tag"
}
for r in $(seq 1 "$repeats"); do
  for skip in 0 1; do run "box-1-skip$skip-$r" $skip run scaling-box --set run.steps="$steps"; done
  for skip in 0 1; do run "box-$n-skip$skip-$r" $skip run scaling-box --set run.steps="$steps" --ranks "$n"; done
done
air=(--set 'species=[{"use":"O2"},{"use":"N2"},{"use":"NO"},{"use":"O"},{"use":"N"}]' --set initial.temperature=10000
  --set 'initial.fractions={"N2":0.79,"O2":0.21}' --set run.dt=2e-9 --set 'reactions={"use":"air5"}')
for skip in 0 1; do run "air-reacting-skip$skip" $skip bench --particles 125829120 "${air[@]}"; done
