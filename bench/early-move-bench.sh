#!/usr/bin/env bash
# Device check of early moves (issue 24: the next step's interior part moves while this step's migrants are
# exchanged) on one host with N GPUs: the scaling box strong (126M particles) and weak (31.5M per GPU) on 1 rank and
# on N and 2 ranks with early moves on (the default) and off (DSMC_EARLY_MOVE=0, the same build), one timeline of
# the N-rank strong run, then the hypersonic wedge at full size (1500 steps, sampled from 1000) on 1 and N ranks.
# Most important runs first; each line is printed as it finishes, the JSON summaries go to $OUT/runs.tar.gz.
# Usage: source .device-carry/setup.sh && bash bench/early-move-bench.sh [N] [STEPS]
set -uo pipefail
out=${OUT:-bench-out}; mkdir -p "$out/runs"
n=${1:-4}
steps=${2:-400}
export DSMC_DATA_DIR="$out/data"
# one line of a --json summary: throughput, loop seconds, split line (steps moved early), fields
line() {
  node -e "
    const s = JSON.parse(require('fs').readFileSync('$1', 'utf8').trim().split('\n').pop());
    const early = (s.splitSteps ?? []).map((x) => x.earlyMoves).join('/');
    const ph = s.phases ?? {};
    const ms = (k) => ph[k] ? (1000 * ph[k].avgSeconds).toFixed(3) : '-';
    console.log('$2', '| ranks', s.ranks ?? 1, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3), '| loop s', s.seconds.toFixed(3),
      '| move/sort/collide/exchange ms', ms('move'), ms('sort'), ms('collide'), ms('exchange'), '| early', early || '-', '| fields', s.fieldsSha256.slice(0, 16));
  " 2>&1 || tail -3 "${1%.json}.err"
}
# one run: tag, then dsmc run arguments (environment through `env` in front)
run() {
  local tag=$1; shift
  timeout 240 "$@" --no-save --json --no-progress > "$out/runs/$tag.json" 2> "$out/runs/$tag.err"
  line "$out/runs/$tag.json" "$tag"
}
box=(node bin/dsmc.js run scaling-box --set run.steps="$steps")
run box-1 "${box[@]}"
run "box-$n-early" "${box[@]}" --ranks "$n"
run "box-$n-off" env DSMC_EARLY_MOVE=0 "${box[@]}" --ranks "$n"
run box-2-early "${box[@]}" --ranks 2
run box-2-off env DSMC_EARLY_MOVE=0 "${box[@]}" --ranks 2
weak1=(node bin/dsmc.js run scaling-box --set run.steps="$steps" --set 'grid.cells=[192,128,64]')
weakn=(node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "grid.cells=[192,128,$((64 * n))]")
run weak-1 "${weak1[@]}"
run "weak-$n-early" "${weakn[@]}" --ranks "$n"
run "weak-$n-off" env DSMC_EARLY_MOVE=0 "${weakn[@]}" --ranks "$n"
# where the N-rank step's time goes now
rm -rf "$out/timeline"; mkdir -p "$out/timeline"
run "box-$n-early-timeline" env DSMC_TIMELINE_DIR="$out/timeline" "${box[@]}" --ranks "$n"
node bench/timeline-report.mjs "$out/timeline" > "$out/timeline-report.txt" 2>&1; head -60 "$out/timeline-report.txt"
wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
run wedge-1 "${wedge[@]}"
run "wedge-$n" "${wedge[@]}" --ranks "$n"
tar czf "$out/runs.tar.gz" -C "$out" runs
