#!/usr/bin/env bash
# Run the SPARTA relaxation box (in.air-relax) for partial_energy yes and no,
# five seeds each (env SEEDS), and turn the logs into CSV; appends one line per run
# to OUT/walltimes-relax.txt (wall and user CPU seconds).
# usage: bench/sparta-air/run-relax.sh [OUT_DIR]   (default docs/results/2026-11-26-sparta-air)
# env: SPARTA_EXE (default: built/located by build-sparta.sh), SEEDS, PAR (parallel runs, default 2),
#      EXTRA (extra spa_serial arguments, e.g. "-var nsteps 2000")
set -euo pipefail
source "$(dirname "$0")/run-setup.sh" "${1:-}" air.species air.vss air.tce in.air-relax
SEEDS="${SEEDS:-12345 23456 34567 45678 56789}"
one() { # pe seed
  local tag="relax.pe-$1.s$2"
  timed_run "$tag" walltimes-relax.txt -in in.air-relax -var pe "$1" -var seed "$2"
  node "$HERE/parse-log.mjs" "$OUT/log.$tag" > "$OUT/$tag.csv"
}
n=0
for pe in yes no; do
  for s in $SEEDS; do
    one "$pe" "$s" &
    n=$((n+1))
    if (( n % PAR == 0 )); then wait; fi
  done
done
wait
rm -rf "$WORK"
echo "done: $OUT"
