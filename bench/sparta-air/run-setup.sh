# Sourced by run-relax.sh and run-rates.sh: the folders, the SPARTA executable and the knobs they share, and a timed
# SPARTA run. Sets HERE, ROOT, OUT (argument 1, default docs/results/2026-11-26-sparta-air), EXE (SPARTA_EXE, or
# built/located by build-sparta.sh), PAR (parallel runs, default 2), EXTRA (extra spa_serial arguments) and WORK (a
# temporary folder holding the inputs named after the arguments).
# usage: source "$(dirname "$0")/run-setup.sh" "${1:-}" INPUT...
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$(mkdir -p "${1:-$ROOT/docs/results/2026-11-26-sparta-air}" && cd "${1:-$ROOT/docs/results/2026-11-26-sparta-air}" && pwd)"
shift
EXE="${SPARTA_EXE:-$("$HERE/build-sparta.sh" | tail -1)}"
PAR="${PAR:-2}"
EXTRA="${EXTRA:-}"
WORK="$(mktemp -d)"
for input in "$@"; do cp "$HERE/$input" "$WORK/"; done

# Runs SPARTA in WORK with log.TAG, copies the log to OUT and appends "TAG wall_s user_s: ..." to OUT/TIMES.
# usage: timed_run TAG TIMES SPARTA-ARGUMENTS...
timed_run() {
  local tag=$1 times=$2 tm
  shift 2
  local TIMEFORMAT='%R %U'
  tm=$( { time ( cd "$WORK" && "$EXE" "$@" $EXTRA -log "log.$tag" -screen none ) ; } 2>&1 )
  cp "$WORK/log.$tag" "$OUT/log.$tag"
  echo "$tag wall_s user_s: $tm" | tee -a "$OUT/$times"
}
