#!/usr/bin/env bash
# Device check of multi-GPU efficiency (issue 24) on one host with N GPUs. Part `box`: the scaling box's strong
# study (unsampled and sampled every step) and weak study (31.5M particles per GPU) on 1 and N GPUs, STEPS steps each.
# Part `wedge`: the hypersonic wedge at full size (1500 steps, sampled from 1000) on 1 rank and on N ranks with the
# default balancing, with rcb and slab at other thresholds, and with the first split kept (--rebalance off).
# Writes the --json summaries and the scaling reports to $OUT (or ./bench-out) and prints one line per run.
# Part `ranks8`: 8 ranks sharing the N GPUs (the 8-rank path where no 8-GPU machine is lent), fields against one rank.
# Usage: source .device-carry/setup.sh && bash bench/scaling-bench.sh box|wedge|ranks8 [N] [STEPS]
set -uo pipefail
out=${OUT:-bench-out}; mkdir -p "$out"
part=${1:-box}
n=${2:-2}
steps=${3:-400}
counts=1; for k in 2 4 8; do [ "$k" -le "$n" ] && counts="$counts,$k"; done
export DSMC_DATA_DIR="$out/data"
# one line of a --json summary: throughput, loop seconds, UN, balancing, fields
line() {
  node -e "
    const s = JSON.parse(require('fs').readFileSync('$1', 'utf8').trim().split('\n').pop());
    const b = s.balance ?? {};
    console.log('$2', '| ranks', s.ranks ?? 1, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3), '| loop s', s.seconds.toFixed(2),
      '| UN end/mean', (s.loadNonUniformity ?? 0).toFixed(1), (s.loadNonUniformityMean ?? 0).toFixed(1), '| rebalances', (s.rebalances ?? []).length,
      '| balancing s', (b.rankSeconds ?? 0).toFixed(2), '| checks', b.checks ?? 0, '| fields', s.fieldsSha256.slice(0, 16));
  " 2>&1 || tail -3 "${1%.json}.err"
}
# one study: dsmc study, then its report as JSON, and the efficiencies
study() {
  local name=$1; shift
  node bin/dsmc.js study "$@" --gpus "$counts" --name "$name" --no-progress > "$out/$name.txt" 2>&1
  echo "=== $name (exit $?)"; grep -E "GPUs|efficiency|^ *[0-9]+ " "$out/$name.txt" | head -12
}
if [ "$part" = box ]; then
  study strong strong scaling-box --set run.steps="$steps"
  study strong-sampled strong scaling-box --set run.steps="$steps" --set sampling.enabled=true --set sampling.start=0
  study weak weak scaling-box --set 'grid.cells=[192,128,64]' --set run.steps="$steps"
  for id in 1 2 3; do node bin/dsmc.js report scaling "$id" --format json --out "$out/study-$id.json" > /dev/null 2>&1; done
  node bin/dsmc.js report scaling 1 --format html --out "$out/strong.html" > /dev/null 2>&1
fi
if [ "$part" = wedge ]; then
  w=(hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --no-save --json --no-progress)
  run() { local tag=$1; shift; timeout 300 node bin/dsmc.js run "${w[@]}" "$@" > "$out/wedge-$tag.json" 2> "$out/wedge-$tag.err"; line "$out/wedge-$tag.json" "$tag"; }
  run 1
  run "$n-default" --ranks "$n"
  run "$n-rcb-5" --ranks "$n" --decomposition rcb --rebalance 5
  run "$n-slab-20" --ranks "$n" --decomposition slab --rebalance 20
  run "$n-off" --ranks "$n" --rebalance off
fi
if [ "$part" = ranks8 ]; then
  # the 8-rank path on a machine with fewer GPUs (ranks share them): the sampled scaling box on 1 and 8 ranks, same fields
  list=$(for r in 0 1 2 3 4 5 6 7; do printf '%s,' $((r % n)); done); list=${list%,}
  b=(scaling-box --set run.steps=200 --set sampling.enabled=true --set sampling.start=100 --no-save --json --no-progress)
  timeout 200 node bin/dsmc.js run "${b[@]}" > "$out/box-1.json" 2> "$out/box-1.err"; line "$out/box-1.json" box-1
  timeout 200 node bin/dsmc.js run "${b[@]}" --ranks 8 --gpus "$list" > "$out/box-8.json" 2> "$out/box-8.err"; line "$out/box-8.json" "box-8 (gpus $list)"
fi
