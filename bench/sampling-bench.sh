#!/usr/bin/env bash
# Device benchmark of sampled runs (issue 17), on one GPU: the scaling box (125.8M particles) and the supersonic
# lid-driven cavity grown to 102M particles (1600 x 1600 x 2 cells of 5 um, 20 per cell), each unsampled and
# sampled every step from step 1: by default (the faster of the sampling pass and the collide kernel's walk, measured
# on the first sampled submits), and with each fixed (DSMC_SAMPLE_KERNEL=pass, =walk); then checks on this GPU that a
# sampled run gives the same fields bit for bit on 1 rank (each kernel) and on 2 ranks. Writes each run's --json summary to $OUT (or ./bench-out) and prints the
# throughput, the phase table (the sample phase's calls include the batch-means closes) and the host times.
# Usage on the device machine: source .device-carry/setup.sh && bash bench/sampling-bench.sh [STEPS] [main]
# (main: only the default runs, unsampled and sampled, of both cases)
set -uo pipefail
out=${OUT:-bench-out}; mkdir -p "$out"
steps=${1:-400}
only=${2:-all}
cavity=(--set 'grid.cells=[1600,1600,2]' --set 'grid.cellSize=[5e-6,5e-6,5e-6]' --set run.dt=7.5e-10)
node bin/dsmc.js --version
run() { # name, then dsmc arguments
  local name=$1; shift
  echo "=== $name: dsmc $*"
  /usr/bin/time -v node bin/dsmc.js "$@" --no-save --json --no-progress > "$out/$name.json" 2> "$out/$name.err"
  echo "exit $?"; grep -E "Maximum resident|Elapsed" "$out/$name.err"; tail -3 "$out/$name.err" | grep -v "Exit status"
  node -e "
    const s = JSON.parse(require('fs').readFileSync('$out/$name.json', 'utf8').trim().split('\n').pop());
    console.log('adapter', s.adapter.description, '| particles', s.particles, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3),
      '| bytes/particle', s.bytesPerParticle.toFixed(1), '| samples', s.samples, '| blocks', s.fieldBlocks, '| fields', String(s.fieldsSha256).slice(0, 16), '| timing', s.timing, '| sampleKernel', JSON.stringify(s.sampleKernel));
    for (const [k, p] of Object.entries(s.phases)) console.log('  ', k.padEnd(12), (p.avgSeconds * 1e3).toFixed(3), 'ms x', p.calls, '=', p.percentOfLoop.toFixed(1), '%');
    console.log('   loop', s.seconds.toFixed(3), 's, other', s.otherSeconds.toFixed(3), 's; host', JSON.stringify(s.host));
  " || true
}
run scaling-box-unsampled run scaling-box --set run.steps=$steps --set sampling.enabled=false
run scaling-box-sampled run scaling-box --set run.steps=$steps --set sampling.enabled=true --set sampling.start=1 --set sampling.interval=1
[ "$only" = main ] || DSMC_SAMPLE_KERNEL=pass run scaling-box-sampled-pass run scaling-box --set run.steps=$steps --set sampling.enabled=true --set sampling.start=1 --set sampling.interval=1
[ "$only" = main ] || DSMC_SAMPLE_KERNEL=walk run scaling-box-sampled-walk run scaling-box --set run.steps=$steps --set sampling.enabled=true --set sampling.start=1 --set sampling.interval=1
run cavity-unsampled run supersonic-cavity "${cavity[@]}" --set run.steps=$steps --set sampling.enabled=false
run cavity-sampled run supersonic-cavity "${cavity[@]}" --set run.steps=$steps --set sampling.enabled=true --set sampling.start=1 --set sampling.interval=1
[ "$only" = main ] || DSMC_SAMPLE_KERNEL=pass run cavity-sampled-pass run supersonic-cavity "${cavity[@]}" --set run.steps=$steps --set sampling.enabled=true --set sampling.start=1 --set sampling.interval=1
[ "$only" = main ] || DSMC_SAMPLE_KERNEL=walk run cavity-sampled-walk run supersonic-cavity "${cavity[@]}" --set run.steps=$steps --set sampling.enabled=true --set sampling.start=1 --set sampling.interval=1
[ "$only" = main ] && exit 0
small=(--set 'grid.cells=[200,200,2]' --set run.steps=300 --set sampling.start=50)
run invariance-1-rank run supersonic-cavity "${small[@]}"
[ "$only" = main ] || DSMC_SAMPLE_KERNEL=pass run invariance-1-rank-pass run supersonic-cavity "${small[@]}"
[ "$only" = main ] || DSMC_SAMPLE_KERNEL=walk run invariance-1-rank-walk run supersonic-cavity "${small[@]}"
run invariance-2-ranks run supersonic-cavity "${small[@]}" --ranks 2
node -e "
  const h = (n) => JSON.parse(require('fs').readFileSync('$out/' + n + '.json', 'utf8').trim().split('\n').pop()).fieldsSha256;
  const a = h('invariance-1-rank'), p = h('invariance-1-rank-pass'), w = h('invariance-1-rank-walk'), b = h('invariance-2-ranks');
  console.log('fields on 1 rank (chosen)', a, a === p ? '==' : '!=', '1 rank (pass)', a === w ? '==' : '!=', '1 rank (walk)', a === b ? '==' : '!=', '2 ranks', b);
" || true
