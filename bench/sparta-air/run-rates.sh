#!/usr/bin/env bash
# Heat-bath rate runs (in.air-rates, react_modify compute_chem_rates yes):
# T = 10,000 K and 20,000 K, partial_energy yes and no, reaction subsets A and B
# (together the 19 reactions of air.tce, no species pair twice in one file), plus the
# full air.tce at 10,000 K to show SPARTA's multi-channel overcount in this mode.
# Then rates.mjs writes the table (rates.md) comparing the counts with the Arrhenius rates.
# usage: bench/sparta-air/run-rates.sh [OUT_DIR]   (default docs/results/2026-11-26-sparta-air)
# env: SPARTA_EXE, PAR (parallel runs, default 2), EXTRA (extra spa_serial arguments)
set -euo pipefail
source "$(dirname "$0")/run-setup.sh" "${1:-}" air.species air.vss air.tce air-rates-A.tce air-rates-B.tce in.air-rates
one() { # T pe set(A|B|full)
  local tce="air-rates-$3.tce" tag="rates.T$1.pe-$2.$3" more=""
  # the full-file runs only show the overcount: a quarter of the steps
  [[ "$3" == full ]] && tce=air.tce && more="-var nsteps 5000"
  timed_run "$tag" walltimes-rates.txt -in in.air-rates -var T "$1" -var pe "$2" -var tce "$tce" $more
}
: > "$OUT/walltimes-rates.txt"
jobs_=()
for T in 10000 20000; do for pe in yes no; do for s in A B; do jobs_+=("$T $pe $s"); done; done; done
jobs_+=("10000 yes full" "10000 no full")
n=0
for j in "${jobs_[@]}"; do
  one $j &
  n=$((n+1))
  if (( n % PAR == 0 )); then wait; fi
done
wait
rm -rf "$WORK"
node "$HERE/rates.mjs" "$OUT"/log.rates.* > "$OUT/rates.md"
cat "$OUT/rates.md"
