#!/usr/bin/env bash
# Run the SPARTA relaxation box (in.air-relax) for partial_energy yes and no,
# five seeds each (env SEEDS), and turn the logs into CSV; appends one line per run
# to OUT/walltimes-relax.txt (wall and user CPU seconds).
# usage: bench/sparta-air/run-relax.sh [OUT_DIR]   (default docs/results/2026-11-26-sparta-air)
# env: SPARTA_EXE (default: built/located by build-sparta.sh), SEEDS, PAR (parallel runs, default 2),
#      EXTRA (extra spa_serial arguments, e.g. "-var nsteps 2000")
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$(mkdir -p "${1:-$ROOT/docs/results/2026-11-26-sparta-air}" && cd "${1:-$ROOT/docs/results/2026-11-26-sparta-air}" && pwd)"
EXE="${SPARTA_EXE:-$("$HERE/build-sparta.sh" | tail -1)}"
SEEDS="${SEEDS:-12345 23456 34567 45678 56789}"
PAR="${PAR:-2}"
EXTRA="${EXTRA:-}"
WORK="$(mktemp -d)"
cp "$HERE"/air.species "$HERE"/air.vss "$HERE"/air.tce "$HERE"/in.air-relax "$WORK/"
one() { # pe seed
  local tag="relax.pe-$1.s$2" tm
  local TIMEFORMAT='%R %U'
  tm=$( { time ( cd "$WORK" && "$EXE" -in in.air-relax -var pe "$1" -var seed "$2" $EXTRA -log "log.$tag" -screen none ) ; } 2>&1 )
  cp "$WORK/log.$tag" "$OUT/log.$tag"
  node "$HERE/parse-log.mjs" "$OUT/log.$tag" > "$OUT/$tag.csv"
  echo "$tag wall_s user_s: $tm" | tee -a "$OUT/walltimes-relax.txt"
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
