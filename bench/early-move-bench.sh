#!/usr/bin/env bash
# Device check of early moves (issue 24: the next step's interior part moves while this step's migrants are
# exchanged) on one host with N GPUs. Parts, in the order given:
#   ab        the scaling box (126M particles, STEPS steps) on 1 rank and on N and 2 ranks with early moves on (the
#             default) and off (DSMC_EARLY_MOVE=0, the same build); --detail runs of N ranks and of one rank with a
#             rank's share (weak-1: 31.5M particles at N=4); the box sampled every step on 1 and N ranks
#   knobs     the box on 1 and N ranks untimed (--timing off), early moves on and off, GPU poll pauses 0 and 10 µs
#   studies   `dsmc study strong` and `dsmc study weak` (31.5M particles per GPU) on 1, 2 and N GPUs, and their reports
#   timeline  the N-rank box with DSMC_TIMELINE_DIR and bench/timeline-report.mjs
#   wedge     the hypersonic wedge at full size (1500 steps, sampled from 1000) on 1 and N ranks
#   capacity  idle particle slots (DSMC_CAPACITY_FACTOR 1 and 1.5) on one GPU, and the wedge on N ranks at 1 and 1.4
#   wedge-detail  the wedge on 1 and N ranks with --detail, each rank's phases
#   wedge-timeline  the wedge on N ranks with DSMC_TIMELINE_DIR and bench/timeline-report.mjs
#   wedge-rebalance-timeline  the wedge on N ranks, rcb --rebalance 20, with the timeline: checks and relayouts
#   rebalance-profile  the same with the events of the steps around the re-split kept, and the decision on the CPU
#   wedge-balance  the wedge on 1 and N ranks: slab (the default), rcb, rcb --rebalance 20, slab --rebalance 10, block --rebalance 5
#   wedge-final  the wedge on 1 and N ranks with the default decomposition, slab --rebalance 10 (not with WEDGE_SHORT=1),
#             and --rebalance 20, and each run's end-of-run fold
#   eight     8 ranks sharing the N GPUs: the box unsampled, and sampled from step 200 against one rank
#   wedge-coarse  the wedge on 1 and N ranks: the default (rcb, first split kept), rcb --rebalance 20 and 10, slab
#             --rebalance 10 (rebalance checks on coarse blocks), and the balancing line of each
#   sampled-ab  the box sampled every step on N ranks, base build against new, interleaved
#   sampled   the box sampled every step on 1 and N ranks
#   end-threads  the box sampled every step on 1 and N ranks, the end of run evaluated on threads and on one thread
#   final     the box sampled every step on 1 and N ranks, 8 ranks sharing the N GPUs, the wedge with --rebalance 20
#   base      A/B against a base build unpacked as out-base/ (bin-base/dsmc.js runs it): the box on N and 2 ranks,
#             each build twice, interleaved; then N ranks of each build with --detail, and one GPU with a rank's share
#   wedge-base  the wedge's default on 1 rank, and on N ranks with the new and the base build
#   wedge-time  the wedge on 1 and N ranks: default, --rebalance 20 and 10 by measured time, --rebalance 20 by counts
#   wedge-cost  the wedge over 1500 and 3000 steps on 1 and N ranks: default, --rebalance 20 by the cost model (the
#             default on GPUs) and by counts (DSMC_BALANCE_BY=particles), and (1500 steps) --rebalance 10
#   wedge-cost2  wedge-cost without the one-GPU 3000-step run and --rebalance 10
#   wedge-cost3  the wedge on N ranks: default, --rebalance 20 by the cost model (with the timeline) and by counts
#   wedge-cost-2  the wedge on 1 and N ranks: default, --rebalance 20 by the cost model and by counts
#   wedge-counts  the wedge on N ranks rebalanced by counts at UN > 10 %
#   wedge-time-20  the wedge on N ranks rebalanced by measured time at UN > 20 %
#   wedge-long  the wedge over 3000 steps (sampled from 2000) on 1 and N ranks, default and --rebalance 20
#   wedge-model  the wedge on N ranks: default, and rebalanced by the measured cost model at 10 and 20 %
#   sampled-base  the box sampled every step on 1 and N ranks, new build against the base build, and unsampled on N and 1
#   clocks    nvidia-smi's SM clocks, power and throttle reasons during the box on 1 GPU, 1 GPU with a rank's share and N
#             ranks (bench/clock-report.mjs: per run and GPU, the mean SM clock and power while it ran)
#   s29-default  the box and the wedge on N ranks, the default (rebalancing on) against --rebalance off, twice,
#             one GPU each; the wedge on 2N ranks (two a GPU), default against off
#   s29-age   the wedge on 2N ranks (two a GPU), default against off; slab --rebalance 10 on N
#   s29-long  the wedge over 3000 steps on 2N ranks (default, off) and N ranks (default)
#   wedge-1   the wedge's default on one GPU;  wedge-rcb-20  on N ranks, rcb --rebalance 20 (a re-split's cost)
#   builds    BUILDS="REV ..." (packed with bench/bisect-builds.sh pack) interleaved: the box on 1, N (twice) and 2 ranks,
#             and on N ranks with --detail
#   builds-detail  BUILDS="REV ..." interleaved: the box on N ranks with --detail, twice each
#   live      new against base, interleaved: the box on 1 rank (capacity factor 1 and 1.5), on N and 2 ranks; the wedge's
#             default on 1 and N ranks (passes dispatched for the live bound, ranks of open flows with room)
#   dispatch  bench/dispatch-cost.mjs on GPU 0: a dispatch's cost beyond its work, one pass and a pass each
#   concurrent  one GPU with a rank's share (--detail) alone, then N of them at once, one per GPU
#   diag      BUILDS="BASE NEW DIAG": the box on N ranks (--detail) with each, the diagnostic one (5c7cac2, which has the
#             knob) with DSMC_DIAG_PLAIN_ORDER=1;
#             one GPU with a rank's share; the wedge's default on N ranks, base and new
#   rank-vs-share  the box on one GPU and one GPU with a rank's share (--detail), on N ranks with --detail (twice),
#             untimed on 1 and N ranks, and the N-rank timeline: where a rank's step goes beyond one GPU's share
#   gaps      BUILDS="BASE": the GPU's idle gaps between passes, command buffers and batches (DSMC_GPU_GAPS=1) of the box
#             on one GPU, a rank's share and N ranks, and of the wedge on N; the wedge on N, this build and the base
#             interleaved twice; bench/mapped-read.mjs
#   boundary  bench/boundary-gap.mjs (what a command buffer boundary and a host-visible copy cost the GPU), the box on N
#             ranks with its gaps by boundary and its timeline
#   s28-ab    BUILDS="BASE": the box on N ranks (plain twice, --detail) with the GPU's gaps, this build and the base
#             interleaved; DSMC_SMALL_HALO_BLOCKS=0 and untimed; the box on one GPU; the wedge on N, new and base;
#             bench/boundary-gap.mjs with 2.36 MB
#   timing-ab  phases timed on one call in 8 (default) against every call (--timing full) and off: the box on one GPU and
#             N ranks, the wedge on N; bench/boundary-gap.mjs with 2.36 MB
#   s28-final  BUILDS="BASE": bench/boundary-gap.mjs (2.36 MB), the box on N ranks timed on every call against the base,
#             then rows-now and the base's box and wedge on N ranks
#   estimates  the default timing's phase estimates against every call timed: the box on one GPU and N ranks, the wedge on N
#   wedge-ab3  BUILDS="BASE": the wedge's default on N ranks, this build and the base interleaved three times; one GPU once each
#   rank-work  BUILDS="BASE": the box on N ranks, new and base interleaved (twice), the new build's timeline; the box
#             sampled every step and the wedge's default on one GPU and N ranks with --detail
#   wedge-rank-ab  BUILDS="BASE": the wedge's default on one GPU and on N ranks, this build and the base, plain and
#             --detail, interleaved; the box on N ranks, new and base, twice
#   s26-ab    BUILDS="BASE": the box on N ranks (--detail, then plain twice), the N2 box on one GPU (--detail, plain)
#             and on N ranks, the wedge's set-up on N ranks (200 steps), the box on one GPU; this build and the base
#   s26-ab2   BUILDS="BASE": on N ranks, this build and the base: the N2 box, the box, the wedge's default and rcb
#             --rebalance 20 (every migrant emitted by subgroup)
#   scan-ab   BUILDS="BASE": the box on one GPU (--detail, plain twice), the collide benchmark, the box on N ranks
#             (--detail, plain), the wedge on one GPU; this build and the base
#   ab-n      BUILDS="BASE": the box (twice) and the wedge on N GPUs, this build and the base interleaved
#   totals-ab  BUILDS="BASE": the wedge on N ranks, this build and the base interleaved twice; this build's timeline
#   s27-ab    BUILDS="SURFACE GC": this build against the surface-sums and GC builds: the wedge on N ranks and one GPU, the box
#             on N, interleaved; this build's wedge timeline on N
#   old-gc-ab  the ranks' major collections together (the default) against each on its own (DSMC_OLD_COLLECTIONS=0): the
#             wedge on N and 2N ranks, the box on N, interleaved; the wedge's GC trace and timeline on N
#   submits   the wedge with 50 and 136 steps a submit on 1 and N, the box timed and untimed, the wedge's timeline and
#             rcb --rebalance 10 on N (what a submit's end and the timing cost)
#   rows-now  issue 24's rows on the machine there is, this build only, the most wanted first: box, wedge, weak, sampled
#   exit-timing  the one-GPU wedge for 200 steps, twice: each output line stamped with the seconds since the start,
#             then the exit (what the wall time holds beyond set-up, loop and end of run)
#   setup-ab  BUILDS="BASE": the wedge's set-up and its parts (200 steps) on one GPU and N ranks, twice, and its solver
#             tables alone (bench/build-tables.mjs), this build and the base
#   session-rows  BUILDS="BASE": the wedge's default on one GPU and N ranks, the box on one GPU and N ranks, this build
#             and the base interleaved; the box sampled every step on one GPU and N ranks
#   weak-timeline  BUILDS="BASE": the weak row (31.5M a GPU) on one GPU and N ranks, this build and the base, and the
#             N-rank timeline
#   acceptance  BUILDS="BASE": issue 24's rows on one machine: the box strong on 1, 2 and N GPUs (this build, and the
#             base on 2 and N), sampled every step on 1 and N; the weak row (31.5M a GPU) on 1, 2 and N (base on 2 and N);
#             the wedge (1500 steps sampled from 1000) on 1 and N, default, rcb --rebalance 20, slab --rebalance 10
#   weak-ab   BUILDS="BASE": the weak row's N-rank run, this build and the base, interleaved, three times
#   weak-poll  the weak row's N-rank run with the GPU poll pause at 0, 10, 50 and 200 µs, twice
#   weak-profile  the weak row's N-rank run with each rank's CPU profile (100 µs samples) and the timeline
#   resplit-ab  BUILDS="BASE": a re-split's parts, this build then each base: the wedge on N ranks, rcb --rebalance 20
#             balancing counts (the same re-split in each), with the timeline; then by time; then the decision on the CPU
#             (RESPLIT_OPTIONS replaces "--decomposition rcb --rebalance 20")
#   wedge-ab  BUILDS="BASE": the wedge's default and the box sampled every step on N ranks, this build then the base
#   prefault-ab  the box sampled every step on N ranks, end-of-run memory prefaulted or not (DSMC_PREFAULT=0), twice
#   end-of-run  the end of a sampled run on the CPU (bench/end-of-run-fields.mjs): fresh memory against prefaulted arenas
#   collect-ab  BUILDS="BASE": the box on N ranks (twice) and 2 ranks, the wedge's default on N ranks, this build and the
#             base interleaved, then this build's wedge timeline (the ranks' garbage collections taken together)
#   wedge-1-ab  BUILDS="BASE": the wedge on one GPU, this build and the base interleaved, --detail and plain
#   subgroup-ab  the move's count by runs in a subgroup against an atomic a particle (DSMC_SUBGROUPS=0), one build: the box
#             and the wedge on one GPU (--detail and plain, REPS times), the collide benchmark, then on N ranks
#   rows-2    BUILDS="BASE": issue 24's rows on a machine of N (2) GPUs: the box strong, weak and sampled on 1 and N, the
#             wedge's default on 1 and N, the N-GPU box, weak and wedge rows with the base too
#   startup-ab  BUILDS="BASE": the wedge at full size for 200 steps on one GPU and on N ranks, this build and the base
#             interleaved (a run's set-up: wall time less loop and end of run)
#   permute-ab  BUILDS="BASE": the box on one GPU (--detail, plain twice), the collide benchmark, the box on N ranks, the
#             wedge on one GPU, this build and the base interleaved (the cell words placed by the sort's order)
#   ranks-ab  BUILDS="BASE": the box and the wedge's default on N ranks, --detail then plain (REPS times, default 2), this
#             build and the base interleaved (a rank's own work: the halo pass's order by keys, injection skipped)
#   order-ab  BUILDS="BASE": the box and the wedge on one GPU (--detail and plain) and on N ranks (none when N is 1),
#             this build and the base interleaved (the sort's order)
#   session-ab  new against base, interleaved: the box on N ranks (3 each), sampled every step and on 2 ranks (2 each),
#             the wedge's default on N ranks
# Each run prints one line as it finishes; the JSON summaries and study outputs go to $OUT/runs.tar.gz.
# Usage: source .device-carry/setup.sh && bash bench/early-move-bench.sh N STEPS PART...
set -uo pipefail
out=${OUT:-bench-out}; mkdir -p "$out/runs"
n=${1:-4}
steps=${2:-400}
shift 2
export DSMC_DATA_DIR="$out/data"
# a base build unpacked as out-base/ (with its own shaders/) finds the presets through out-base/resources
[ -d out-base ] && [ ! -e out-base/resources ] && ln -s ../resources out-base/resources
# one line of a --json summary: throughput, loop seconds, phase times per step, steps moved early per rank, fields;
# and for a rebalancing run a second line: balancing seconds, checks, UN and where the seconds went
line() {
  node -e "
    const s = JSON.parse(require('fs').readFileSync('$1', 'utf8').trim().split('\n').pop());
    const early = (s.splitSteps ?? []).map((x) => x.earlyMoves).join('/');
    const ph = s.phases ?? {};
    const phases = Object.entries(ph).map(([k, p]) => k + ' ' + (1000 * p.totalSeconds / s.steps).toFixed(3)).join(', ');
    console.log('$2', '| capacity', s.capacity, '| ranks', s.ranks ?? 1, '| particle-steps/s', s.particleStepsPerSecond.toExponential(3), '| loop s', s.seconds.toFixed(3),
      '| early', early || '-', '| fields', s.fieldsSha256.slice(0, 16), '| end of run s', (s.host?.foldSeconds ?? 0).toFixed(3), '| set-up s', s.setupSeconds === undefined ? '-' : s.setupSeconds.toFixed(1), '| wall s', '${3:-?}', '| ms per step:', phases);
    const b = s.balance;
    if (b && b.rankSeconds > 0) console.log('   balance s', b.rankSeconds.toFixed(3), 'by', b.by ?? '-', 'prices', b.prices ? b.prices.cellWeight.toPrecision(3) + ' + ' + b.prices.squareWeight.toPrecision(3) + ' n^2' : (b.cellWeight ?? '-'), 'checks', b.checks, 'full', b.fullChecks, 'block', b.checkBlock, 'orchestrator s', b.orchestratorSeconds.toFixed(3), 'rebalances', (s.rebalances ?? []).length, 'UN end/mean', (s.loadNonUniformity ?? 0).toFixed(1), (s.loadNonUniformityMean ?? 0).toFixed(1), JSON.stringify(b.parts ?? {}));
    if (s.rebalances && s.rebalances.length > 0) console.log('   re-splits', JSON.stringify(s.rebalances.map((e) => [e.step, Math.round(e.unBefore), Math.round(e.unAfter ?? -1), e.moved])));
    if (Object.keys(ph).some((k) => k.startsWith('gpu-gap.'))) for (const [r, ph] of (s.phaseSecondsPerRank ?? [Object.fromEntries(Object.entries(s.phases).map(([k, p]) => [k, p.totalSeconds]))]).entries()) console.log('   rank', r, 'ms per step, work', (1000 * Object.entries(ph).filter(([k]) => !k.startsWith('gpu-gap.') && !k.startsWith('exchange')).reduce((a, [, v]) => a + v, 0) / s.steps).toFixed(3), 'gaps:', Object.entries(ph).filter(([k]) => k.startsWith('gpu-gap.')).map(([k, v]) => k.slice(8) + ' ' + (1000 * v / s.steps).toFixed(3)).join(', '), '| loop ms per step', (1000 * s.seconds / s.steps).toFixed(3));
    if ('$2'.includes('detail')) for (const [r, ph] of (s.phaseSecondsPerRank ?? []).entries()) console.log('   rank', r, 'ms per step:', Object.entries(ph).map(([k, v]) => k + ' ' + (1000 * v / s.steps).toFixed(3)).join(', '));
    const e = s.endOfRun;
    if (e) console.log('   end of run: read back s', JSON.stringify(e.readSeconds.map((x) => +x.toFixed(3))), 'evaluated s', JSON.stringify(e.evaluateSeconds.map((x) => +x.toFixed(3))), 'threads', JSON.stringify(e.threads), 'planes written s', JSON.stringify((e.writeSeconds ?? []).map((x) => +x.toFixed(3))), 'placed s', e.placeSeconds === undefined ? '-' : e.placeSeconds.toFixed(3));
    if (s.setupParts) console.log('   set-up s', Object.entries(s.setupParts).sort((a, b) => b[1] - a[1]).map(([k, v]) => k + ' ' + v.toFixed(2)).join(', '));
    const yc = s.youngCollections ?? [];
    if (yc.length > 0) console.log('   collections together', yc.filter((g) => g.rank === 0).length, 'after submits', JSON.stringify(yc.filter((g) => g.rank === 0).map((g) => g.index + (g.major ? ' major' : ''))), 'longest ms per rank', JSON.stringify([...new Set(yc.map((g) => g.rank))].map((r) => +(1000 * Math.max(...yc.filter((g) => g.rank === r).map((g) => g.seconds))).toFixed(1))));
    if (s.particlesPerRank) console.log('   particles per rank', JSON.stringify(s.particlesPerRank), 'GPU s per rank', JSON.stringify((s.gpuSecondsPerRank ?? []).map((x) => +x.toFixed(3))), 'UN end/mean', (s.loadNonUniformity ?? 0).toFixed(1), (s.loadNonUniformityMean ?? 0).toFixed(1), 'submits', s.host.submits, 'capacity', s.capacity, 'redos', (s.splitSteps ?? []).map((x) => x.redos).join('/'));
  " 2>&1 || tail -3 "${1%.json}.err"
}
# one run: tag, then the command (environment through `env` in front)
run() {
  local tag=$1; shift
  local t0; t0=$(date +%s.%N)
  timeout 240 "$@" --no-save --json --no-progress > "$out/runs/$tag.json" 2> "$out/runs/$tag.err"
  line "$out/runs/$tag.json" "$tag" "$(awk -v a="$(date +%s.%N)" -v b="$t0" "BEGIN{printf \"%.1f\", a - b}")"
}
# the builds packed with bench/bisect-builds.sh pack, each REV of $BUILDS unpacked as out-REV/ and run as bin-REV/dsmc.js
unpack_builds() {
  tar xJf .device-carry/builds.tar.xz
  for rev in $BUILDS; do
    mkdir -p "bin-$rev"; sed "s#\.\./out/src-main#../out-$rev/src-main#" bin/dsmc.js > "bin-$rev/dsmc.js"; ln -sfn ../resources "out-$rev/resources"
  done
}
# the box ("${basebox[@]}", STEPS steps) and the wedge ("${basewedge[@]}", 1500 steps sampled from 1000) with build REV
# (unpacked by unpack_builds)
base_cases() {
  basebox=(node "bin-$1/dsmc.js" run scaling-box --set run.steps="$steps")
  basewedge=(node "bin-$1/dsmc.js" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
}
# the box on one GPU with --detail, then plain twice, and the collide benchmark (1e8), this build and build REV interleaved
# (after base_cases REV)
one_gpu_ab() {
  run box-1-new-detail "${box[@]}" --detail
  run "box-1-$1-detail" "${basebox[@]}" --detail
  for k in 1 2; do
    run "box-1-new-$k" "${box[@]}"
    run "box-1-$1-$k" "${basebox[@]}"
  done
  run bench-new node bin/dsmc.js bench --particles 1e8
  run "bench-$1" node "bin-$1/dsmc.js" bench --particles 1e8
}
# the wedge's 1500-step runs ("${wedge[@]}": one GPU too) or 3000-step ones ("${long[@]}", tags ending -long) on N ranks:
# the default, --rebalance 20 by the cost model (the default on GPUs) and by counts
wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
long=(node bin/dsmc.js run hypersonic-wedge --set run.steps=3000 --set sampling.start=2000)
wedge_cost() {
  local cmd=("${wedge[@]}") tail=""
  if [ "$1" = 3000 ]; then cmd=("${long[@]}"); tail=-long; else run wedge-1 "${wedge[@]}"; fi
  run "wedge-$n${tail:--default}" "${cmd[@]}" --ranks "$n"
  run "wedge-$n-rcb-20-time$tail" "${cmd[@]}" --ranks "$n" --rebalance 20
  run "wedge-$n-rcb-20-particles$tail" env DSMC_BALANCE_BY=particles "${cmd[@]}" --ranks "$n" --rebalance 20
}
# the box on one GPU and on N ranks with the default timing and with --timing full, twice each, interleaved (the N-rank
# tags end in $1: "-detail" prints each rank's phases)
timing_pairs() {
  for k in 1 2; do
    run "box-1-sampled-$k" "${box[@]}"
    run "box-1-full-$k" "${box[@]}" --timing full
    run "box-$n-sampled$1-$k" "${box[@]}" --ranks "$n"
    run "box-$n-full$1-$k" "${box[@]}" --ranks "$n" --timing full
  done
}
# the wedge's default on N ranks, this build and build $rev ("${basewedge[@]}", after base_cases) interleaved K times
wedge_ab() {
  for k in $(seq 1 "$1"); do
    run "wedge-$n-new-$k" "${wedge[@]}" --ranks "$n"
    run "wedge-$n-$rev-$k" "${basewedge[@]}" --ranks "$n"
  done
}
# the box on N ranks (twice) and on 2 ranks, the new build ("${box[@]}") and the base ("${basebox[@]}") interleaved
box_ab() {
  for k in 1 2; do
    run "box-$n-new-$k" "${box[@]}" --ranks "$n"
    run "box-$n-base-$k" "${basebox[@]}" --ranks "$n"
  done
  run box-2-new "${box[@]}" --ranks 2
  run box-2-base "${basebox[@]}" --ranks 2
}
# the box on N ranks, this build then each build of $BUILDS, twice, interleaved
box_builds_twice() {
  for k in 1 2; do
    run "box-$n-new-$k" "${box[@]}" --ranks "$n"
    for rev in $BUILDS; do run "box-$n-$rev-$k" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --ranks "$n"; done
  done
}
# one run with every rank's timeline (DSMC_TIMELINE_DIR), its report printed (the first HEAD lines) and kept with the
# ranks' events: tag, then the command
timeline_run() {
  local tag=$1; shift
  rm -rf "$out/timeline"; mkdir -p "$out/timeline"
  run "$tag" env DSMC_TIMELINE_DIR="$out/timeline" "$@"
  node bench/timeline-report.mjs "$out/timeline" > "$out/runs/timeline-report.txt" 2>&1; head -"${HEAD:-60}" "$out/runs/timeline-report.txt"
  cp "$out"/timeline/rank-*.jsonl "$out/runs/" 2>/dev/null
}
box=(node bin/dsmc.js run scaling-box --set run.steps="$steps")
share=(node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "grid.cells=[192,128,$((256 / n))]")
for part in "$@"; do
  case "$part" in
    ab)
      run box-1 "${box[@]}"
      run "box-$n-early" "${box[@]}" --ranks "$n"
      run "box-$n-off" env DSMC_EARLY_MOVE=0 "${box[@]}" --ranks "$n"
      run box-2-early "${box[@]}" --ranks 2
      run box-2-off env DSMC_EARLY_MOVE=0 "${box[@]}" --ranks 2
      run "box-$n-early-detail" "${box[@]}" --ranks "$n" --detail
      run "box-$n-off-detail" env DSMC_EARLY_MOVE=0 "${box[@]}" --ranks "$n" --detail
      run share-1-detail "${share[@]}" --detail
      run box-1-sampled "${box[@]}" --set sampling.enabled=true --set sampling.start=0
      run "box-$n-sampled" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      ;;
    knobs)
      # what else a step pays for on N ranks: GPU timestamps (--timing off), the pause before each GPU poll
      run box-1-untimed "${box[@]}" --timing off
      run "box-$n-early-untimed" "${box[@]}" --ranks "$n" --timing off
      run "box-$n-off-untimed" env DSMC_EARLY_MOVE=0 "${box[@]}" --ranks "$n" --timing off
      run "box-$n-early-untimed-poll0" env DSMC_POLL_PAUSE_US=0 "${box[@]}" --ranks "$n" --timing off
      run "box-$n-off-untimed-poll0" env DSMC_EARLY_MOVE=0 DSMC_POLL_PAUSE_US=0 "${box[@]}" --ranks "$n" --timing off
      run "box-$n-early-untimed-poll10" env DSMC_POLL_PAUSE_US=10 "${box[@]}" --ranks "$n" --timing off
      run "box-$n-off-untimed-poll10" env DSMC_EARLY_MOVE=0 DSMC_POLL_PAUSE_US=10 "${box[@]}" --ranks "$n" --timing off
      run "box-$n-early-untimed-2" "${box[@]}" --ranks "$n" --timing off
      run "box-$n-off-untimed-2" env DSMC_EARLY_MOVE=0 "${box[@]}" --ranks "$n" --timing off
      run "box-2-early-untimed" "${box[@]}" --ranks 2 --timing off
      run "box-2-off-untimed" env DSMC_EARLY_MOVE=0 "${box[@]}" --ranks 2 --timing off
      ;;
    studies)
      gpus=1; for k in 2 4 8; do [ "$k" -le "$n" ] && gpus="$gpus,$k"; done
      node bin/dsmc.js study strong scaling-box --set run.steps="$steps" --gpus "$gpus" --name strong --no-progress > "$out/runs/strong.txt" 2>&1
      echo "=== strong (exit $?)"; grep -E "GPUs|efficiency|^ *[0-9]+ " "$out/runs/strong.txt" | head -12
      node bin/dsmc.js study weak scaling-box --set 'grid.cells=[192,128,64]' --set run.steps="$steps" --gpus "$gpus" --name weak --no-progress > "$out/runs/weak.txt" 2>&1
      echo "=== weak (exit $?)"; grep -E "GPUs|efficiency|^ *[0-9]+ " "$out/runs/weak.txt" | head -12
      for id in 1 2; do node bin/dsmc.js report scaling "$id" --format json --out "$out/runs/study-$id.json" > /dev/null 2>&1; done
      ;;
    timeline)
      HEAD=40 timeline_run "box-$n-timeline" "${box[@]}" --ranks "$n"
      ;;
    wedge)
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run wedge-1 "${wedge[@]}"
      run "wedge-$n" "${wedge[@]}" --ranks "$n"
      ;;
    capacity)
      # what idle particle slots cost (passes dispatched over the capacity: DSMC_CAPACITY_FACTOR) on one GPU, and
      # whether room from the start spares the 4-rank wedge its buffer growths in the loop
      run box-1-cap1 "${box[@]}"
      run box-1-cap1.5 env DSMC_CAPACITY_FACTOR=1.5 "${box[@]}"
      run box-1-cap1-detail "${box[@]}" --detail
      run box-1-cap1.5-detail env DSMC_CAPACITY_FACTOR=1.5 "${box[@]}" --detail
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run "wedge-$n-cap1" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-cap1.4" env DSMC_CAPACITY_FACTOR=1.4 "${wedge[@]}" --ranks "$n"
      ;;
    wedge-detail)
      # where the wedge's GPU time goes on 1 and N ranks (--detail: sort stages and halo passes apart), per rank
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run wedge-1-detail "${wedge[@]}" --detail
      run "wedge-$n-detail" "${wedge[@]}" --ranks "$n" --detail
      ;;
    wedge-timeline)
      # the wedge's default on N ranks with DSMC_TIMELINE_DIR: where the most loaded rank's GPU waits
      rm -rf "$out/wtimeline"; mkdir -p "$out/wtimeline"
      run "wedge-$n-timeline" env DSMC_TIMELINE_DIR="$out/wtimeline" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
      node bench/timeline-report.mjs "$out/wtimeline" > "$out/runs/wedge-timeline-report.txt" 2>&1; grep -E "^rank|step period|host work|^    step|slowest|garbage|event-loop" "$out/runs/wedge-timeline-report.txt"
      ;;
    wedge-rebalance-timeline)
      # the wedge on N ranks, rcb --rebalance 20, with DSMC_TIMELINE_DIR: where a check's and a relayout's time goes
      rm -rf "$out/rtimeline"; mkdir -p "$out/rtimeline"
      run "wedge-$n-rcb-20-timeline" env DSMC_TIMELINE_DIR="$out/rtimeline" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n" --decomposition rcb --rebalance 20
      node bench/timeline-report.mjs "$out/rtimeline" > "$out/runs/wedge-rebalance-timeline-report.txt" 2>&1; grep -A12 "between steps" "$out/runs/wedge-rebalance-timeline-report.txt" | head -40
      ;;
    rebalance-profile)
      # where a re-split's time goes (issue 24): the wedge on N ranks, rcb --rebalance 20, with the timeline, the
      # ranks' events of the steps around each re-split kept (runs/rtimeline-R.jsonl), the orchestrator's parts in the
      # summary; then the orchestrator's decision on this host's CPU (bench/rebalance-decision.mjs)
      rm -rf "$out/rtimeline"; mkdir -p "$out/rtimeline"
      run "wedge-$n-rcb-20-profile" env DSMC_TIMELINE_DIR="$out/rtimeline" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n" --decomposition rcb --rebalance 20
      node bench/timeline-report.mjs "$out/rtimeline" > "$out/runs/wedge-rebalance-timeline-report.txt" 2>&1; grep -A6 "between steps" "$out/runs/wedge-rebalance-timeline-report.txt" | head -40
      for f in "$out"/rtimeline/rank-*.jsonl; do
        node -e "const fs=require('fs');const ls=fs.readFileSync('$f','utf8').trim().split('\n');const keep=ls.filter((l)=>{const j=JSON.parse(l);return j.step===undefined||(j.step>=590&&j.step<=640)});fs.writeFileSync('$out/runs/rtimeline-'+require('path').basename('$f'),keep.join('\n')+'\n')"
      done
      node -e "const s=JSON.parse(require('fs').readFileSync('$out/runs/wedge-$n-rcb-20-profile.json','utf8').trim().split('\n').pop()); console.log(JSON.stringify(s.balance), JSON.stringify(s.rebalances))"
      node bench/rebalance-decision.mjs 3 | head -5
      ;;
    s29-default)
      # balanced by default (rebalancing on at UN > 20 % when a split saves twice its cost): the box and the wedge
      # (1500 steps sampled from 1000) on N ranks, the default against --rebalance off, interleaved twice, one GPU
      # each; then 2N ranks on the N GPUs (two a GPU), the wedge's default against off
      run box-1 "${box[@]}"
      for k in 1 2; do
        run "box-$n-default-$k" "${box[@]}" --ranks "$n"
        run "box-$n-off-$k" "${box[@]}" --ranks "$n" --rebalance off
      done
      run wedge-1 "${wedge[@]}"
      for k in 1 2; do
        run "wedge-$n-default-$k" "${wedge[@]}" --ranks "$n"
        run "wedge-$n-off-$k" "${wedge[@]}" --ranks "$n" --rebalance off
      done
      run "wedge-$((2 * n))-default" "${wedge[@]}" --ranks $((2 * n))
      run "wedge-$((2 * n))-off" "${wedge[@]}" --ranks $((2 * n)) --rebalance off
      ;;
    s29-age)
      # the wedge (1500 steps sampled from 1000) on 2N ranks (two a GPU), the default against off, and on N ranks slab
      # --rebalance 10 (a split judged within as many steps as the split in force has lasted)
      run "wedge-$((2 * n))-default" "${wedge[@]}" --ranks $((2 * n))
      run "wedge-$((2 * n))-off" "${wedge[@]}" --ranks $((2 * n)) --rebalance off
      run "wedge-$n-slab-10" "${wedge[@]}" --ranks "$n" --decomposition slab --rebalance 10
      ;;
    s29-long)
      # the wedge over 3000 steps sampled from 2000 on 2N ranks (two a GPU) and N ranks: the default against off
      run "wedge-$((2 * n))-default-long" "${long[@]}" --ranks $((2 * n))
      run "wedge-$((2 * n))-off-long" "${long[@]}" --ranks $((2 * n)) --rebalance off
      run "wedge-$n-default-long" "${long[@]}" --ranks "$n"
      ;;
    wedge-balance)
      # every decomposition and a rebalance threshold: no failure, the balancing's share of the loop in the summary
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run wedge-1 "${wedge[@]}"
      run "wedge-$n" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-rcb" "${wedge[@]}" --ranks "$n" --decomposition rcb
      run "wedge-$n-rcb-20" "${wedge[@]}" --ranks "$n" --decomposition rcb --rebalance 20
      run "wedge-$n-slab-10" "${wedge[@]}" --ranks "$n" --decomposition slab --rebalance 10
      run "wedge-$n-block-5" "${wedge[@]}" --ranks "$n" --decomposition block --rebalance 5
      ;;
    wedge-final)
      # the wedge with today's defaults (rcb where bodies cut the box) and two rebalancing runs
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run wedge-1 "${wedge[@]}"
      run "wedge-$n-default" "${wedge[@]}" --ranks "$n"
      [ "${WEDGE_SHORT:-0}" = 1 ] || run "wedge-$n-slab-10" "${wedge[@]}" --ranks "$n" --decomposition slab --rebalance 10
      run "wedge-$n-rcb-20" "${wedge[@]}" --ranks "$n" --rebalance 20
      # the end-of-run fold (reading the sampling state and placing it) of the runs above, seconds
      for f in "$out"/runs/wedge-*.json; do node -e "const s=JSON.parse(require('fs').readFileSync('$f','utf8').trim().split('\\n').pop()); console.log('$f', 'fold s', s.host.foldSeconds.toFixed(3))" 2>/dev/null; done
      ;;
    eight)
      # 8 ranks sharing the N GPUs (two per GPU at N = 4): the 8-rank path at full size, fields against one rank
      list=$(for r in 0 1 2 3 4 5 6 7; do printf '%s,' $((r % n)); done); list=${list%,}
      run box-8 "${box[@]}" --ranks 8 --gpus "$list"
      run box-1-sampled-late "${box[@]}" --set sampling.enabled=true --set sampling.start=200
      run box-8-sampled-late "${box[@]}" --set sampling.enabled=true --set sampling.start=200 --ranks 8 --gpus "$list"
      ;;
    wedge-coarse)
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run wedge-1 "${wedge[@]}"
      run "wedge-$n-default" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-rcb-20" "${wedge[@]}" --ranks "$n" --rebalance 20
      run "wedge-$n-rcb-10" "${wedge[@]}" --ranks "$n" --rebalance 10
      run "wedge-$n-slab-10" "${wedge[@]}" --ranks "$n" --decomposition slab --rebalance 10
      ;;
    wedge-time)
      # the wedge on 1 and N ranks: the default (rcb, first split kept), rebalanced at UN > 20 % and 10 % by measured
      # GPU time and at 20 % by particle counts; re-splits re-cut the split in force or start anew
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run wedge-1 "${wedge[@]}"
      run "wedge-$n-default" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-rcb-20-time" env DSMC_BALANCE_BY=time "${wedge[@]}" --ranks "$n" --rebalance 20
      run "wedge-$n-rcb-20-particles" env DSMC_BALANCE_BY=particles "${wedge[@]}" --ranks "$n" --rebalance 20
      run "wedge-$n-rcb-10-time" env DSMC_BALANCE_BY=time "${wedge[@]}" --ranks "$n" --rebalance 10
      ;;
    wedge-long)
      # the wedge twice as long (3000 steps, sampled from 2000): one GPU, N ranks by default and rebalanced at UN > 20 %
      # (whether a re-split pays over a longer run)
      long=(node bin/dsmc.js run hypersonic-wedge --set run.steps=3000 --set sampling.start=2000)
      run wedge-1-long "${long[@]}"
      run "wedge-$n-long" "${long[@]}" --ranks "$n"
      run "wedge-$n-rcb-20-long" "${long[@]}" --ranks "$n" --rebalance 20
      ;;
    wedge-time-20)
      # the wedge on N ranks rebalanced at UN > 20 % by measured GPU time (the split in force re-cut or made anew)
      run "wedge-$n-rcb-20-time" env DSMC_BALANCE_BY=time node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n" --rebalance 20
      ;;
    wedge-model)
      # the wedge on N ranks: the default, and rebalanced by the measured cost model (DSMC_BALANCE_BY=time) at 10 and 20 %
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run "wedge-$n-default" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-rcb-10-model" env DSMC_BALANCE_BY=time "${wedge[@]}" --ranks "$n" --rebalance 10
      run "wedge-$n-rcb-20-model" env DSMC_BALANCE_BY=time "${wedge[@]}" --ranks "$n" --rebalance 20
      ;;
    wedge-cost)
      # the wedge on 1 and N ranks over 1500 steps (sampled from 1000) and 3000 (sampled from 2000): the default (rcb,
      # first split kept), rebalanced at UN > 20 % by the measured cost model (the default on GPUs: prices per cell and
      # per squared count) and by particle counts, and at 10 % by the cost model
      wedge_cost 1500
      run "wedge-$n-rcb-10-time" "${wedge[@]}" --ranks "$n" --rebalance 10
      run wedge-1-long "${long[@]}"
      wedge_cost 3000
      ;;
    wedge-cost2)
      # wedge-cost without its one-GPU long run and --rebalance 10 (to fit one device call of 10 minutes)
      wedge_cost 1500
      wedge_cost 3000
      ;;
    wedge-cost3)
      # the wedge on N ranks: the default, --rebalance 20 by the cost model with the timeline (the re-split's events in
      # runs/rtimeline-rank-R.jsonl, as rebalance-profile), and --rebalance 20 by counts
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run "wedge-$n-default" "${wedge[@]}" --ranks "$n"
      rm -rf "$out/rtimeline"; mkdir -p "$out/rtimeline"
      run "wedge-$n-rcb-20-time" env DSMC_TIMELINE_DIR="$out/rtimeline" "${wedge[@]}" --ranks "$n" --rebalance 20
      node bench/timeline-report.mjs "$out/rtimeline" > "$out/runs/wedge-rebalance-timeline-report.txt" 2>&1; grep -A2 "between steps" "$out/runs/wedge-rebalance-timeline-report.txt" | head -16
      run "wedge-$n-rcb-20-particles" env DSMC_BALANCE_BY=particles "${wedge[@]}" --ranks "$n" --rebalance 20
      ;;
    wedge-cost-2)
      # the wedge on 1 and N ranks (for a machine of 2 GPUs): the default, --rebalance 20 by the cost model and by counts
      wedge_cost 1500
      ;;
    wedge-counts)
      # the wedge on N ranks rebalanced by particle counts at UN > 10 % (re-splits re-cut the split in force)
      run "wedge-$n-rcb-10-particles" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n" --rebalance 10
      ;;
    sampled-base)
      # the box sampled every step on 1 and N ranks, the new build (blocks close inside 100-step submits) against the
      # base build (20-step submits), interleaved
      [ -f bin-base/dsmc.js ] || { echo "sampled-base: no bin-base/dsmc.js (unpack the base build first)"; continue; }
      basebox=(node bin-base/dsmc.js run scaling-box --set run.steps="$steps")
      run box-1-sampled-new "${box[@]}" --set sampling.enabled=true --set sampling.start=0
      run box-1-sampled-base "${basebox[@]}" --set sampling.enabled=true --set sampling.start=0
      for k in 1 2; do
        run "box-$n-sampled-new-$k" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
        run "box-$n-sampled-base-$k" "${basebox[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      done
      run "box-$n-new" "${box[@]}" --ranks "$n"
      run box-1-new "${box[@]}"
      ;;
    base)
      [ -f bin-base/dsmc.js ] || { echo "base: no bin-base/dsmc.js (unpack the base build first)"; continue; }
      basebox=(node bin-base/dsmc.js run scaling-box --set run.steps="$steps")
      run box-1 "${box[@]}"
      box_ab
      # where the rank's own work goes: N ranks with --detail against one GPU with a rank's share
      run "box-$n-new-detail" "${box[@]}" --ranks "$n" --detail
      run "box-$n-base-detail" "${basebox[@]}" --ranks "$n" --detail
      run share-1-detail "${share[@]}" --detail
      ;;
    wedge-base)
      # the wedge's default (1500 steps, sampled from 1000) on 1 rank, and on N ranks with the new and the base build
      [ -f bin-base/dsmc.js ] || { echo "wedge-base: no bin-base/dsmc.js (unpack the base build first)"; continue; }
      run wedge-1 node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000
      run "wedge-$n-new" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
      run "wedge-$n-base" node bin-base/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
      ;;
    resplit-ab)
      # a re-split's cost, this build against BUILDS (packed with bench/bisect-builds.sh pack): the wedge on N ranks (on
      # fewer GPUs than N they share them: the host's parts compare, the GPU's do not), rcb --rebalance 20 balancing
      # counts (the same re-split in every build), with the timeline (runs/resplit-BUILD-rtimeline-rank-R.jsonl: the
      # steps around each re-split); then by measured time with this build; then the decision on this host's CPU
      unpack_builds
      for b in new $BUILDS; do
        bin=bin/dsmc.js; [ "$b" = new ] || bin="bin-$b/dsmc.js"
        rm -rf "$out/rtimeline"; mkdir -p "$out/rtimeline"
        # RESPLIT_OPTIONS: the decomposition and threshold (default rcb --rebalance 20)
        run "wedge-$n-rcb-20-particles-$b" env DSMC_BALANCE_BY=particles DSMC_TIMELINE_DIR="$out/rtimeline" node "$bin" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n" ${RESPLIT_OPTIONS:---decomposition rcb --rebalance 20}
        for f in "$out"/rtimeline/rank-*.jsonl; do
          node -e "const fs=require('fs');const ls=fs.readFileSync('$f','utf8').trim().split('\n');const keep=ls.filter((l)=>{const j=JSON.parse(l);return Object.keys(j).some((k)=>k.startsWith('check')||k.startsWith('relayout')||k.startsWith('cell-state')||k==='hostWork')});fs.writeFileSync('$out/runs/resplit-$b-rtimeline-'+require('path').basename('$f'),keep.join('\n')+'\n')"
        done
        node -e "const s=JSON.parse(require('fs').readFileSync('$out/runs/wedge-$n-rcb-20-particles-$b.json','utf8').trim().split('\n').pop()); console.log('$b', JSON.stringify(s.balance))"
      done
      run "wedge-$n-rcb-20-time-new" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n" ${RESPLIT_OPTIONS:---decomposition rcb --rebalance 20}
      node -e "const s=JSON.parse(require('fs').readFileSync('$out/runs/wedge-$n-rcb-20-time-new.json','utf8').trim().split('\n').pop()); console.log('by time', JSON.stringify(s.balance))"
      node bench/rebalance-decision.mjs 4 | head -6
      ;;
    wedge-ab)
      # this build against BUILDS (packed with bench/bisect-builds.sh pack): the wedge's default on N ranks and the box
      # sampled every step on N ranks, each new then base (the end of run and the loop)
      unpack_builds
      run "wedge-$n-new" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
      for rev in $BUILDS; do run "wedge-$n-$rev" node "bin-$rev/dsmc.js" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"; done
      run "box-$n-sampled-new" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      for rev in $BUILDS; do run "box-$n-sampled-$rev" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"; done
      ;;
    prefault-ab)
      # the box sampled every step on N ranks with the end of run's memory prefaulted during the set-up (the default)
      # and without (DSMC_PREFAULT=0), interleaved twice: the loop and the end of run
      for k in 1 2; do
        run "box-$n-sampled-prefault-$k" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
        run "box-$n-sampled-fresh-$k" env DSMC_PREFAULT=0 "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      done
      ;;
    end-of-run)
      # the end of a sampled run on this host's CPU: fresh memory against prefaulted arenas (bench/end-of-run-fields.mjs)
      node bench/end-of-run-fields.mjs --no-old 2>&1 | tee "$out/runs/end-of-run.txt"
      ;;
    end-threads)
      # the box sampled every step on 1 and N ranks, the end of the run's evaluation on worker threads (the default)
      # and on one thread (DSMC_EVAL_THREADS=1), interleaved
      run box-1-sampled "${box[@]}" --set sampling.enabled=true --set sampling.start=0
      run box-1-sampled-1thread env DSMC_EVAL_THREADS=1 "${box[@]}" --set sampling.enabled=true --set sampling.start=0
      run "box-$n-sampled" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      run "box-$n-sampled-1thread" env DSMC_EVAL_THREADS=1 "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      ;;
    sampled)
      # the box sampled every step on 1 and N ranks (the acceptance's sampled row)
      run box-1-sampled "${box[@]}" --set sampling.enabled=true --set sampling.start=0
      run "box-$n-sampled" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      ;;
    final)
      # the box sampled every step on 1 and N ranks, 8 ranks sharing the N GPUs, the wedge rebalanced at UN > 20 %
      run box-1-sampled "${box[@]}" --set sampling.enabled=true --set sampling.start=0
      run "box-$n-sampled" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      list=$(for r in 0 1 2 3 4 5 6 7; do printf '%s,' $((r % n)); done); list=${list%,}
      run box-8 "${box[@]}" --ranks 8 --gpus "$list"
      run "wedge-$n-rcb-20" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n" --rebalance 20
      ;;
    sampled-ab)
      # the box sampled every step on N ranks, the base build against the new one, interleaved
      basebox=(node bin-base/dsmc.js run scaling-box --set run.steps="$steps")
      for k in 1 2; do
        run "box-$n-sampled-base-$k" "${basebox[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
        run "box-$n-sampled-new-$k" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      done
      ;;
    ab2)
      # the base A/B alone: N ranks of each build, interleaved, and the wedge's default on N ranks with the base build
      basebox=(node bin-base/dsmc.js run scaling-box --set run.steps="$steps")
      run "box-$n-base-1" "${basebox[@]}" --ranks "$n"
      run "box-$n-new-1" "${box[@]}" --ranks "$n"
      run "box-$n-base-2" "${basebox[@]}" --ranks "$n"
      run "box-$n-new-2" "${box[@]}" --ranks "$n"
      run "box-$n-base-detail" "${basebox[@]}" --ranks "$n" --detail
      run "wedge-$n-base" node bin-base/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
      ;;
    session-ab)
      # this session's changes against a base build (bin-base/dsmc.js), interleaved on one machine: the box on N ranks
      # three times each, sampled every step twice each, on 2 ranks twice each, and the wedge's default on N ranks
      [ -f bin-base/dsmc.js ] || { echo "session-ab: no bin-base/dsmc.js (unpack the base build first)"; continue; }
      basebox=(node bin-base/dsmc.js run scaling-box --set run.steps="$steps")
      for k in 1 2 3; do
        run "box-$n-new-$k" "${box[@]}" --ranks "$n"
        run "box-$n-base-$k" "${basebox[@]}" --ranks "$n"
      done
      for k in 1 2; do
        run "box-$n-sampled-new-$k" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
        run "box-$n-sampled-base-$k" "${basebox[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
        run "box-2-new-$k" "${box[@]}" --ranks 2
        run "box-2-base-$k" "${basebox[@]}" --ranks 2
      done
      run "wedge-$n-new" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
      run "wedge-$n-base" node bin-base/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
      ;;
    builds)
      # builds side by side (BUILDS="REV ...", packed with bench/bisect-builds.sh pack), interleaved: the box on 1 rank,
      # on N ranks twice, on 2 ranks, and on N ranks with --detail (all but the first build)
      unpack_builds
      for rev in $BUILDS; do run "box-1-$rev" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps"; done
      for k in 1 2; do for rev in $BUILDS; do run "box-$n-$rev-$k" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --ranks "$n"; done; done
      for rev in $BUILDS; do run "box-2-$rev" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --ranks 2; done
      for rev in ${BUILDS#* }; do run "box-$n-$rev-detail" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --ranks "$n" --detail; done
      ;;
    clocks)
      # the GPUs' SM clocks, power and throttle reasons every 100 ms (nvidia-smi) while the box runs on one GPU, one GPU
      # with a rank's share, and N ranks (--detail): does a rank's GPU run slower when all N work?
      nvidia-smi --query-gpu=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 100 > "$out/runs/smi.csv" 2>&1 &
      smi=$!
      for tag in box-1 share-1-detail "box-$n-detail" share-1-detail-2; do
        echo "$tag start $(date +%H:%M:%S.%N)" >> "$out/runs/marks.txt"
        case "$tag" in
          box-1) run "$tag" "${box[@]}" ;;
          share-1-detail*) run "$tag" "${share[@]}" --detail ;;
          *) run "$tag" "${box[@]}" --ranks "$n" --detail ;;
        esac
        echo "$tag end $(date +%H:%M:%S.%N)" >> "$out/runs/marks.txt"
      done
      kill $smi
      node bench/clock-report.mjs "$out/runs/smi.csv" "$out/runs/marks.txt"
      ;;
    wedge-1)
      run wedge-1 node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000
      ;;
    wedge-rcb-20)
      run "wedge-$n-rcb-20" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n" --decomposition rcb --rebalance 20
      ;;
    builds-detail)
      # builds side by side (BUILDS="REV ...", packed with bench/bisect-builds.sh pack): the box on N ranks with --detail,
      # twice each, interleaved (where a rank's stages go with each build)
      unpack_builds
      for k in 1 2; do for rev in $BUILDS; do run "box-$n-$rev-detail-$k" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --ranks "$n" --detail; done; done
      ;;
    live)
      # passes over the live particles dispatched for the live bound, not the capacity (tenth session), with ranks of
      # open flows starting with room (RANK_GATHER_ROOM), against a base build (bin-base/dsmc.js), interleaved: the box
      # on 1 rank (and with 1.5 times the capacity: idle slots should cost nothing now), on N and 2 ranks; the wedge's
      # default on 1 and N ranks, with --detail on N ranks
      [ -f bin-base/dsmc.js ] || { echo "live: no bin-base/dsmc.js (unpack the base build first)"; continue; }
      basebox=(node bin-base/dsmc.js run scaling-box --set run.steps="$steps")
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      basewedge=(node bin-base/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run box-1-new "${box[@]}"
      run box-1-base "${basebox[@]}"
      run box-1-new-cap1.5 env DSMC_CAPACITY_FACTOR=1.5 "${box[@]}"
      box_ab
      run wedge-1-new "${wedge[@]}"
      run wedge-1-base "${basewedge[@]}"
      run "wedge-$n-new" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-base" "${basewedge[@]}" --ranks "$n"
      ;;
    dispatch)
      # what one dispatch costs beyond its work on GPU 0 (bench/dispatch-cost.mjs)
      node bench/dispatch-cost.mjs 200 2>&1 | tee "$out/runs/dispatch-cost.txt"
      ;;
    concurrent)
      # one GPU with a rank's share (--detail) alone, then N such runs at once, one per GPU (pinned by PCI address):
      # do the kernels of one GPU slow down when all N work, with no exchange between them?
      run share-1-alone "${share[@]}" --detail
      k=0
      for bus in $(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | head -n "$n"); do
        pci=$(echo "$bus" | sed 's/^0000//' | tr ':.' '__' | tr 'A-F' 'a-f')
        DRI_PRIME="pci-$pci" MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE=1 timeout 240 "${share[@]}" --detail --no-save --json --no-progress > "$out/runs/share-1-together-$k.json" 2> "$out/runs/share-1-together-$k.err" &
        k=$((k + 1))
      done
      wait
      for j in $(seq 0 $((k - 1))); do line "$out/runs/share-1-together-$j.json" "share-1-together-$j"; done
      run "box-$n-detail" "${box[@]}" --ranks "$n" --detail
      ;;
    rank-vs-share)
      # a rank's own work against one GPU's: the box on one GPU and one GPU with a rank's share (--detail), the box on N
      # ranks with --detail twice, untimed on 1 and N ranks (what the timestamps cost), then the N-rank timeline
      run box-1-detail "${box[@]}" --detail
      run share-1-detail "${share[@]}" --detail
      run "box-$n-detail-1" "${box[@]}" --ranks "$n" --detail
      run "box-$n-detail-2" "${box[@]}" --ranks "$n" --detail
      run box-1-untimed "${box[@]}" --timing off
      run "box-$n-untimed" "${box[@]}" --ranks "$n" --timing off
      timeline_run "box-$n-timeline" "${box[@]}" --ranks "$n"
      ;;
    gaps)
      # BUILDS="BASE": where a rank's step goes beyond its passes (DSMC_GPU_GAPS=1: the GPU's idle time between passes,
      # command buffers and batches, from the pass timestamps): the box on one GPU, one GPU with a rank's share and N
      # ranks (twice), untimed on N; the wedge's default on N ranks with the gaps; then the wedge on N ranks, this build
      # and the base interleaved twice (the periodic totals' partials summed on the GPU); bench/mapped-read.mjs
      run box-1-gaps env DSMC_GPU_GAPS=1 "${box[@]}"
      run share-1-gaps env DSMC_GPU_GAPS=1 "${share[@]}"
      run "box-$n-gaps-1" env DSMC_GPU_GAPS=1 "${box[@]}" --ranks "$n"
      run "box-$n-gaps-2" env DSMC_GPU_GAPS=1 "${box[@]}" --ranks "$n"
      run "box-$n-detail-gaps" env DSMC_GPU_GAPS=1 "${box[@]}" --ranks "$n" --detail
      run "box-$n-untimed" "${box[@]}" --ranks "$n" --timing off
      run "wedge-$n-gaps" env DSMC_GPU_GAPS=1 "${wedge[@]}" --ranks "$n"
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      wedge_ab 2
      timeout 120 node bench/mapped-read.mjs > "$out/runs/mapped-read.txt" 2>&1; cat "$out/runs/mapped-read.txt"
      ;;
    boundary)
      # what a command buffer boundary and a host-visible copy cost the GPU (bench/boundary-gap.mjs, 0.25, 1 and 4 MB
      # copies), then the box on N ranks with its gaps by boundary (DSMC_GPU_GAPS=1) and its timeline (migrants a step)
      for mb in 1 0.25 4; do timeout 120 node bench/boundary-gap.mjs "$mb" 60 2>&1 | tee -a "$out/runs/boundary-gap.txt"; done
      run "box-$n-gaps" env DSMC_GPU_GAPS=1 "${box[@]}" --ranks "$n"
      HEAD=0 timeline_run "box-$n-timeline" env DSMC_GPU_GAPS=1 "${box[@]}" --ranks "$n"
      grep -E "^rank|step period|migrants sent|GPU idle|interior pass ends" "$out/runs/timeline-report.txt"
      ;;
    s28-ab)
      # BUILDS="BASE": this build (a small halo scanned in one dispatch, the arrivals joined there, the halo particles
      # listed by subgroup) against the base: the box on N ranks plain (twice) and --detail, interleaved, with the GPU's
      # gaps; this build with DSMC_SMALL_HALO_BLOCKS=0 (the five-dispatch halo scan) and untimed; the box on one GPU;
      # the wedge's default on N ranks, this build and the base; bench/boundary-gap.mjs with the box's 2.4 MB
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      for k in 1 2; do
        run "box-$n-new-$k" env DSMC_GPU_GAPS=1 "${box[@]}" --ranks "$n"
        run "box-$n-$rev-$k" env DSMC_GPU_GAPS=1 "${basebox[@]}" --ranks "$n"
      done
      run "box-$n-new-detail" env DSMC_GPU_GAPS=1 "${box[@]}" --ranks "$n" --detail
      run "box-$n-$rev-detail" env DSMC_GPU_GAPS=1 "${basebox[@]}" --ranks "$n" --detail
      run "box-$n-new-five" env DSMC_GPU_GAPS=1 DSMC_SMALL_HALO_BLOCKS=0 "${box[@]}" --ranks "$n"
      run "box-$n-new-untimed" "${box[@]}" --ranks "$n" --timing off
      run "box-$n-$rev-untimed" "${basebox[@]}" --ranks "$n" --timing off
      run box-1-new "${box[@]}"
      run "wedge-$n-new" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-$rev" "${basewedge[@]}" --ranks "$n"
      timeout 120 node bench/boundary-gap.mjs 2.36 60 > "$out/runs/boundary-gap.txt" 2>&1; cat "$out/runs/boundary-gap.txt"
      ;;
    timing-ab)
      # phases timed on one call in 8 (the default) against every call (--timing full) and none (--timing off): the box
      # on one GPU and N ranks, twice each, interleaved; the wedge's default on N ranks, default and full; then
      # bench/boundary-gap.mjs with the box's 2.36 MB (what the extra small copies of a rank's exchange cost)
      timing_pairs ""
      run box-1-off "${box[@]}" --timing off
      run "box-$n-off" "${box[@]}" --ranks "$n" --timing off
      run "wedge-$n-sampled" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-full" "${wedge[@]}" --ranks "$n" --timing full
      timeout 120 node bench/boundary-gap.mjs 2.36 60 > "$out/runs/boundary-gap.txt" 2>&1; cat "$out/runs/boundary-gap.txt"
      ;;
    s28-final)
      # BUILDS="BASE": bench/boundary-gap.mjs with the box's 2.36 MB (what the small copies cost); the box on N ranks,
      # this build timed on every call (--timing full: the arrivals' one copy alone) against the base, interleaved
      # twice; then issue 24's rows with this build (rows-now), and the base's box and wedge on N ranks
      timeout 120 node bench/boundary-gap.mjs 2.36 60 > "$out/runs/boundary-gap.txt" 2>&1; grep -E "two-cb|rank-like|wall" "$out/runs/boundary-gap.txt"
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      for k in 1 2; do
        run "box-$n-new-full-$k" "${box[@]}" --ranks "$n" --timing full
        run "box-$n-$rev-$k" "${basebox[@]}" --ranks "$n"
      done
      run "box-$n-$rev-3" "${basebox[@]}" --ranks "$n"
      run "wedge-$n-$rev" "${basewedge[@]}" --ranks "$n"
      # last: the nested script packs the runs folder (this one's too) and removes it
      bash "$0" "$n" "$steps" rows-now
      ;;
    estimates)
      # the phases' estimates of the default timing (one call in 8) against every call timed: the box on one GPU and on
      # N ranks, each twice, interleaved, with each rank's phases; the wedge's default on N ranks, default and full
      timing_pairs -detail
      run "wedge-$n-sampled-detail" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-full-detail" "${wedge[@]}" --ranks "$n" --timing full
      ;;
    wedge-ab3)
      # BUILDS="BASE": the wedge's default on N ranks, this build and the base interleaved three times, then on one GPU
      # each once
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      wedge_ab 3
      run wedge-1-new "${wedge[@]}"
      run "wedge-1-$rev" "${basewedge[@]}"
      ;;
    rank-work)
      # BUILDS="BASE": the box on N ranks, this build then the base, twice each, interleaved, and this build's timeline
      # (the batch ends); then where a sampled and a body case lose on N ranks against one GPU, by stage: the box
      # sampled every step and the wedge's default (1500 steps sampled from 1000), on one GPU and N ranks, --detail
      unpack_builds
      box_builds_twice
      HEAD=0 timeline_run "box-$n-timeline" "${box[@]}" --ranks "$n"
      grep -E "^rank|step period|slowest|share of the loop" "$out/runs/timeline-report.txt"
      run box-1-sampled-detail "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --detail
      run "box-$n-sampled-detail" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n" --detail
      run wedge-1-detail node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --detail
      run "wedge-$n-detail" node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n" --detail
      ;;
    wedge-rank-ab|session-rows)
      # BUILDS="BASE", this build against the base, interleaved. wedge-rank-ab: the wedge's default (1500 steps sampled
      # from 1000) on one GPU, then on N ranks with each build, plain and with --detail (each rank's stages); the box on N
      # ranks, twice each. session-rows: the wedge on one GPU and N ranks, the box on one GPU and on N ranks (twice each),
      # then the box sampled every step on one GPU and N ranks (this build)
      unpack_builds
      wedge=(node bin/dsmc.js run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000)
      run wedge-1 "${wedge[@]}"
      for rev in $BUILDS; do
        run "wedge-$n-new" "${wedge[@]}" --ranks "$n"
        run "wedge-$n-$rev" "${basewedge[@]}" --ranks "$n"
        if [ "$part" = wedge-rank-ab ]; then
          run "wedge-$n-new-detail" "${wedge[@]}" --ranks "$n" --detail
          run "wedge-$n-$rev-detail" node "bin-$rev/dsmc.js" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n" --detail
        else
          run box-1-new "${box[@]}"
          run "box-1-$rev" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps"
        fi
        for k in 1 2; do
          run "box-$n-new-$k" "${box[@]}" --ranks "$n"
          run "box-$n-$rev-$k" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --ranks "$n"
        done
      done
      if [ "$part" = session-rows ]; then
        run box-1-sampled "${box[@]}" --set sampling.enabled=true --set sampling.start=0
        run "box-$n-sampled" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      fi
      ;;
    weak-timeline)
      # BUILDS="BASE": the weak row's runs (31.5M particles a GPU): one GPU, N ranks with this build and the base, and
      # this build's N-rank timeline (where a short step's exchange shows)
      unpack_builds
      weak=(node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "grid.cells=[192,128,$((64 * n))]")
      run weak-1 node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "grid.cells=[192,128,64]"
      run "weak-$n-new" "${weak[@]}" --ranks "$n"
      for rev in $BUILDS; do run "weak-$n-$rev" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --set "grid.cells=[192,128,$((64 * n))]" --ranks "$n"; done
      timeline_run "weak-$n-timeline" "${weak[@]}" --ranks "$n"
      ;;
    acceptance)
      unpack_builds
      weakgrid() { echo "grid.cells=[192,128,$((64 * $1))]"; }
      run box-1 "${box[@]}"
      run weak-1 node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "$(weakgrid 1)"
      for m in 2 "$n"; do
        run "box-$m-new" "${box[@]}" --ranks "$m"
        run "weak-$m-new" node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "$(weakgrid "$m")" --ranks "$m"
        for rev in $BUILDS; do
          run "box-$m-$rev" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --ranks "$m"
          run "weak-$m-$rev" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --set "$(weakgrid "$m")" --ranks "$m"
        done
      done
      run box-1-sampled "${box[@]}" --set sampling.enabled=true --set sampling.start=0
      run "box-$n-sampled" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      run wedge-1 "${wedge[@]}"
      run "wedge-$n-default" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-rcb-20" "${wedge[@]}" --ranks "$n" --decomposition rcb --rebalance 20
      run "wedge-$n-slab-10" "${wedge[@]}" --ranks "$n" --decomposition slab --rebalance 10
      ;;
    weak-ab)
      # BUILDS="BASE": the weak row's N-rank run (31.5M particles a GPU), this build and the base, interleaved, 3 times
      unpack_builds
      for k in 1 2 3; do
        run "weak-$n-new-$k" node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "grid.cells=[192,128,$((64 * n))]" --ranks "$n"
        for rev in $BUILDS; do run "weak-$n-$rev-$k" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --set "grid.cells=[192,128,$((64 * n))]" --ranks "$n"; done
      done
      ;;
    weak-poll)
      # the weak row's N-rank run (31.5M particles a GPU, exchange-bound on an H200) with the GPU poll pause at 0, 10, 50
      # (the default) and 200 µs, interleaved twice: does the pacing hold the peers' migrants up?
      weak=(node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "grid.cells=[192,128,$((64 * n))]")
      run "weak-$n-warm" "${weak[@]}" --ranks "$n"
      for k in 1 2; do
        for us in 0 10 50 200; do run "weak-$n-poll$us-$k" env DSMC_POLL_PAUSE_US=$us "${weak[@]}" --ranks "$n"; done
      done
      ;;
    weak-profile)
      # the weak row's N-rank run with every rank's CPU profile (--cpu-prof, 100 µs samples) and the timeline: what runs
      # on a rank's main thread between a peer's migrants coming in and its exchange resuming
      weak=(node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "grid.cells=[192,128,$((64 * n))]")
      mkdir -p "$out/runs/profiles"; profiles=$(cd "$out/runs/profiles" && pwd)
      HEAD=0 timeline_run "weak-$n-profile" env DSMC_RANK_NODE_ARGS="--cpu-prof --cpu-prof-interval 100 --cpu-prof-dir=$profiles" "${weak[@]}" --ranks "$n"
      grep -E "^rank|step period|waiting|of it: the last|event-loop" "$out/runs/timeline-report.txt"
      node bench/cpu-profile-top.mjs "$profiles"/*.cpuprofile --top 45 > "$out/runs/profile-top.txt" 2>&1; head -c 20000 "$out/runs/profile-top.txt"
      # the profiles themselves travel apart (runs.tar.gz stays small), the largest left out beyond the 16 MiB a file
      tar cJf "$out/profiles.tar.xz" -C "$out/runs" profiles && rm -rf "$out/runs/profiles"; ls -la "$out"
      ;;
    diag)
      # BUILDS="BASE NEW DIAG" interleaved, the box on N ranks with --detail twice each: the base, the new build, and the
      # diagnostic build with DSMC_DIAG_PLAIN_ORDER=1 (every interior cell ordered by index: what the mixed cells' key
      # path costs the interior order); then one GPU with a rank's share, and the wedge's default on N ranks, base and new
      unpack_builds
      set -- $BUILDS
      for k in 1 2; do
        run "box-$n-$1-detail-$k" node "bin-$1/dsmc.js" run scaling-box --set run.steps="$steps" --ranks "$n" --detail
        run "box-$n-$2-detail-$k" node "bin-$2/dsmc.js" run scaling-box --set run.steps="$steps" --ranks "$n" --detail
        run "box-$n-$3-plain-order-$k" env DSMC_DIAG_PLAIN_ORDER=1 node "bin-$3/dsmc.js" run scaling-box --set run.steps="$steps" --ranks "$n" --detail
      done
      run share-1-detail "${share[@]}" --detail
      run "wedge-$n-$1" node "bin-$1/dsmc.js" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
      run "wedge-$n-$2" node "bin-$2/dsmc.js" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
      ;;
    collect-ab)
      # BUILDS="BASE": the ranks' collections taken together, this build against the base, interleaved: the box on N ranks
      # (twice each) and on 2 ranks, the wedge's default on N ranks (new, base), then the new build's wedge timeline
      unpack_builds
      box_builds_twice
      run box-2-new "${box[@]}" --ranks 2
      for rev in $BUILDS; do run "box-2-$rev" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --ranks 2; done
      run "wedge-$n-new" "${wedge[@]}" --ranks "$n"
      for rev in $BUILDS; do run "wedge-$n-$rev" node "bin-$rev/dsmc.js" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"; done
      HEAD=0 timeline_run "wedge-$n-new-timeline" "${wedge[@]}" --ranks "$n"
      grep -E "^rank|garbage|slowest|share of the loop|step period" "$out/runs/timeline-report.txt"
      ;;
    order-ab)
      # BUILDS="BASE": the sort's order this build against the base, interleaved: the box and the wedge on one GPU with
      # --detail (the order's stage) and plain, then on N ranks (sharing the GPUs there are)
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      for extra in --detail ""; do
        tag=${extra:+-detail}
        run "box-1-new$tag" "${box[@]}" $extra
        run "box-1-$rev$tag" "${basebox[@]}" $extra
        run "wedge-1-new$tag" "${wedge[@]}" $extra
        run "wedge-1-$rev$tag" "${basewedge[@]}" $extra
      done
      [ "$n" -gt 1 ] || continue
      run "box-$n-new" "${box[@]}" --ranks "$n"
      run "box-$n-$rev" "${basebox[@]}" --ranks "$n"
      run "wedge-$n-new" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-$rev" "${basewedge[@]}" --ranks "$n"
      ;;
    rows-2)
      # BUILDS="BASE": issue 24's rows a 2-GPU machine can give, this build and the base on one machine: the box strong
      # on 1 and N GPUs (this build twice, the base once), the weak row (31.5M a GPU) on 1 and N, the box sampled every
      # step on 1 and N, the wedge's default on 1 and N (1500 steps sampled from 1000)
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      weakgrid() { echo "grid.cells=[192,128,$((64 * $1))]"; }
      run box-1 "${box[@]}"
      run "box-$n-new" "${box[@]}" --ranks "$n"
      run "box-$n-$rev" "${basebox[@]}" --ranks "$n"
      run "box-$n-new-2" "${box[@]}" --ranks "$n"
      run weak-1 node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "$(weakgrid 1)"
      run "weak-$n-new" node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "$(weakgrid "$n")" --ranks "$n"
      run "weak-$n-$rev" node "bin-$rev/dsmc.js" run scaling-box --set run.steps="$steps" --set "$(weakgrid "$n")" --ranks "$n"
      run box-1-sampled "${box[@]}" --set sampling.enabled=true --set sampling.start=0
      run "box-$n-sampled" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      run wedge-1 "${wedge[@]}"
      run "wedge-$n-new" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-$rev" "${basewedge[@]}" --ranks "$n"
      ;;
    s26-ab)
      # BUILDS="BASE": a rank's migrants compacted by subgroup, the internal energy gathered by the permute, the ranks'
      # solver tables built while the orchestrator builds its own; this build against the base, interleaved: the box on
      # N ranks (sharing the GPUs there are) with --detail, then plain twice; the box of rotating N2 on one GPU with
      # --detail and plain; the wedge's set-up (200 steps) on N ranks; the box on one GPU; the N2 box on N ranks
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      n2=(--set 'species=[{"use":"N2"}]')
      run "box-$n-new-detail" "${box[@]}" --ranks "$n" --detail
      run "box-$n-$rev-detail" "${basebox[@]}" --ranks "$n" --detail
      for k in 1 2; do
        run "box-$n-new-$k" "${box[@]}" --ranks "$n"
        run "box-$n-$rev-$k" "${basebox[@]}" --ranks "$n"
      done
      run n2-1-new-detail "${box[@]}" "${n2[@]}" --detail
      run "n2-1-$rev-detail" "${basebox[@]}" "${n2[@]}" --detail
      run n2-1-new "${box[@]}" "${n2[@]}"
      run "n2-1-$rev" "${basebox[@]}" "${n2[@]}"
      short=(run hypersonic-wedge --set run.steps=200 --set sampling.start=100)
      run "wedge-$n-new-short" node bin/dsmc.js "${short[@]}" --ranks "$n"
      run "wedge-$n-$rev-short" node "bin-$rev/dsmc.js" "${short[@]}" --ranks "$n"
      run box-1-new "${box[@]}"
      run "box-1-$rev" "${basebox[@]}"
      run "n2-$n-new" "${box[@]}" "${n2[@]}" --ranks "$n"
      run "n2-$n-$rev" "${basebox[@]}" "${n2[@]}" --ranks "$n"
      ;;
    s26-ab2)
      # BUILDS="BASE": every migrant emitted by subgroup (the move, the collection after a rotating gas's move, the
      # injected particles, a relayout's rounds); this build against the base, interleaved, on N ranks (sharing the GPUs
      # there are): the box of rotating N2, the box, the wedge's default, the wedge with rcb --rebalance 20
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      n2=(--set 'species=[{"use":"N2"}]')
      run "n2-$n-new" "${box[@]}" "${n2[@]}" --ranks "$n"
      run "n2-$n-$rev" "${basebox[@]}" "${n2[@]}" --ranks "$n"
      run "box-$n-new" "${box[@]}" --ranks "$n"
      run "box-$n-$rev" "${basebox[@]}" --ranks "$n"
      run "wedge-$n-new" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-$rev" "${basewedge[@]}" --ranks "$n"
      run "wedge-$n-new-rcb-20" "${wedge[@]}" --ranks "$n" --rebalance 20
      run "wedge-$n-$rev-rcb-20" "${basewedge[@]}" --ranks "$n" --rebalance 20
      ;;
    scan-ab)
      # BUILDS="BASE": the scan coalesced through workgroup memory, this build against the base, interleaved: the box on
      # one GPU (--detail: sort.scan, then plain twice), the collide benchmark (1e8), the box on N ranks (sharing the
      # GPUs there are) with --detail and plain, the wedge on one GPU
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      one_gpu_ab "$rev"
      run "box-$n-new-detail" "${box[@]}" --ranks "$n" --detail
      run "box-$n-$rev-detail" "${basebox[@]}" --ranks "$n" --detail
      run "box-$n-new" "${box[@]}" --ranks "$n"
      run "box-$n-$rev" "${basebox[@]}" --ranks "$n"
      run wedge-1-new "${wedge[@]}"
      run "wedge-1-$rev" "${basewedge[@]}"
      ;;
    ab-n)
      # BUILDS="BASE": this build against the base on N GPUs, interleaved: the box twice each, the wedge's default once
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      for k in 1 2; do
        run "box-$n-new-$k" "${box[@]}" --ranks "$n"
        run "box-$n-$rev-$k" "${basebox[@]}" --ranks "$n"
      done
      run "wedge-$n-new" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-$rev" "${basewedge[@]}" --ranks "$n"
      ;;
    totals-ab)
      # BUILDS="BASE": the wedge's default on N ranks, this build (the periodic totals summed in chunks) and the base,
      # interleaved twice, then this build's wedge on N ranks with the timeline
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      wedge_ab 2
      HEAD=40 timeline_run "wedge-$n-timeline" "${wedge[@]}" --ranks "$n"
      ;;
    s27-ab)
      # BUILDS="SURFACE GC": this build (arrival staging mapped at the next status read) against SURFACE (the surface sums
      # kept on the GPU, 0d60719) and GC (the ranks' major collections together, 0309d49), interleaved: the wedge's
      # default on N ranks twice each, on one GPU (this build and GC), the box on N ranks (this build and SURFACE) twice
      # each, then this build's wedge on N ranks with the timeline
      unpack_builds
      set -- $BUILDS
      surf=$1; gcb=$2
      for k in 1 2; do
        run "wedge-$n-new-$k" "${wedge[@]}" --ranks "$n"
        run "wedge-$n-$surf-$k" node "bin-$surf/dsmc.js" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
        run "wedge-$n-$gcb-$k" node "bin-$gcb/dsmc.js" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 --ranks "$n"
      done
      run wedge-1-new "${wedge[@]}"
      run "wedge-1-$gcb" node "bin-$gcb/dsmc.js" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000
      for k in 1 2; do
        run "box-$n-new-$k" "${box[@]}" --ranks "$n"
        run "box-$n-$surf-$k" node "bin-$surf/dsmc.js" run scaling-box --set run.steps="$steps" --ranks "$n"
      done
      HEAD=40 timeline_run "wedge-$n-timeline" "${wedge[@]}" --ranks "$n"
      ;;
    old-gc-ab)
      # the ranks' major garbage collections taken together (the default) against each rank's V8 collecting on its own
      # (DSMC_OLD_COLLECTIONS=0), one build, interleaved: the wedge's default on N ranks three times each, on 2N ranks (two
      # a GPU) twice each, the box on N ranks once each; then the wedge on N ranks with every rank's GC traced
      # (--trace-gc: runs/wedge-N-gc-trace.err) and with the timeline
      for k in 1 2 3; do
        run "wedge-$n-together-$k" "${wedge[@]}" --ranks "$n"
        run "wedge-$n-own-$k" env DSMC_OLD_COLLECTIONS=0 "${wedge[@]}" --ranks "$n"
      done
      for k in 1 2; do
        run "wedge-$((2 * n))-together-$k" "${wedge[@]}" --ranks "$((2 * n))"
        run "wedge-$((2 * n))-own-$k" env DSMC_OLD_COLLECTIONS=0 "${wedge[@]}" --ranks "$((2 * n))"
      done
      run "box-$n-together" "${box[@]}" --ranks "$n"
      run "box-$n-own" env DSMC_OLD_COLLECTIONS=0 "${box[@]}" --ranks "$n"
      run "wedge-$n-gc-trace" env DSMC_RANK_LOGS=1 DSMC_RANK_NODE_ARGS="--trace-gc --trace-gc-ignore-scavenger" "${wedge[@]}" --ranks "$n"
      grep -h "Mark-Compact" "$out/runs/wedge-$n-gc-trace.err" | cut -c1-170
      HEAD=40 timeline_run "wedge-$n-timeline" "${wedge[@]}" --ranks "$n"
      ;;
    submits)
      # how much a submit's end costs (issue 24, twenty-seventh session): the wedge on one GPU and on N ranks with 50 steps a
      # submit (the case default) and 136 (the most one query set times), twice on N; the box on 1 and N ranks with GPU
      # timestamps and untimed (--timing off); the wedge on N ranks with the timeline (50 steps a submit); the wedge on N
      # ranks rcb --rebalance 10 (a re-split's cost now)
      run wedge-1-sps50 "${wedge[@]}"
      run wedge-1-sps136 "${wedge[@]}" --set run.stepsPerSubmit=136
      for k in 1 2; do
        run "wedge-$n-sps50-$k" "${wedge[@]}" --ranks "$n"
        run "wedge-$n-sps136-$k" "${wedge[@]}" --ranks "$n" --set run.stepsPerSubmit=136
      done
      run box-1-timed "${box[@]}"
      run box-1-untimed "${box[@]}" --timing off
      run "box-$n-timed" "${box[@]}" --ranks "$n"
      run "box-$n-untimed" "${box[@]}" --ranks "$n" --timing off
      HEAD=80 timeline_run "wedge-$n-timeline" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-rcb-10" "${wedge[@]}" --ranks "$n" --rebalance 10
      ;;
    rows-now)
      # issue 24's rows a machine of N GPUs gives, this build only, the most wanted first (for a call with little
      # device time): the box strong on 1 and N GPUs, the wedge's default on 1 and N (1500 steps sampled from 1000),
      # the weak row (31.5M a GPU) on 1 and N, the box sampled every step on 1 and N, the box on N again
      weakgrid() { echo "grid.cells=[192,128,$((64 * $1))]"; }
      run box-1 "${box[@]}"
      run "box-$n" "${box[@]}" --ranks "$n"
      run wedge-1 "${wedge[@]}"
      run "wedge-$n" "${wedge[@]}" --ranks "$n"
      run weak-1 node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "$(weakgrid 1)"
      run "weak-$n" node bin/dsmc.js run scaling-box --set run.steps="$steps" --set "$(weakgrid "$n")" --ranks "$n"
      run box-1-sampled "${box[@]}" --set sampling.enabled=true --set sampling.start=0
      run "box-$n-sampled" "${box[@]}" --set sampling.enabled=true --set sampling.start=0 --ranks "$n"
      run "box-$n-2" "${box[@]}" --ranks "$n"
      ;;
    exit-timing)
      # where a one-GPU run's wall time goes beyond set-up, loop and end of run: each output line of `dsmc run` stamped
      # with the seconds since the command started (the summary's lines come when it is ready), then the exit: the
      # wedge at full size for 200 steps (sampled from 100), twice
      for k in 1 2; do
        t0=$(date +%s.%N)
        node bin/dsmc.js run hypersonic-wedge --set run.steps=200 --set sampling.start=100 --no-save --no-progress 2>&1 \
          | while IFS= read -r l; do awk -v a="$(date +%s.%N)" -v b="$t0" -v l="$l" 'BEGIN{printf "%6.2f %s\n", a - b, l}'; done > "$out/runs/exit-$k.txt"
        awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN{printf "%6.2f exited\n", a - b}' >> "$out/runs/exit-$k.txt"
        grep -E "^ *[0-9.]+ (throughput|host|set-up|memory|sampling|phase timing)|exited" "$out/runs/exit-$k.txt"
      done
      ;;
    setup-ab)
      # BUILDS="BASE": a run's set-up and its parts (the summary's setupParts), this build against the base, interleaved:
      # the hypersonic wedge at full size for 200 steps (sampled from 100) on one GPU and on N ranks, each twice; the
      # solver tables of the full-size wedge built alone (bench/build-tables.mjs), this build and the base
      unpack_builds
      rev=${BUILDS%% *}
      node bench/build-tables.mjs out 2>&1 | tee "$out/runs/tables-new.txt"
      node bench/build-tables.mjs "out-$rev" 2>&1 | tee "$out/runs/tables-$rev.txt"
      short=(run hypersonic-wedge --set run.steps=200 --set sampling.start=100)
      for k in 1 2; do
        run "wedge-1-new-short-$k" node bin/dsmc.js "${short[@]}"
        run "wedge-1-$rev-short-$k" node "bin-$rev/dsmc.js" "${short[@]}"
        run "wedge-$n-new-short-$k" node bin/dsmc.js "${short[@]}" --ranks "$n"
        run "wedge-$n-$rev-short-$k" node "bin-$rev/dsmc.js" "${short[@]}" --ranks "$n"
      done
      ;;
    startup-ab)
      # BUILDS="BASE": a run's set-up (the wall time less the loop and the end of run), this build against the base: the
      # hypersonic wedge at full size for 200 steps (sampled from 100) on one GPU and on N ranks, interleaved
      unpack_builds
      rev=${BUILDS%% *}
      short=(run hypersonic-wedge --set run.steps=200 --set sampling.start=100)
      run wedge-1-new-short node bin/dsmc.js "${short[@]}"
      run "wedge-1-$rev-short" node "bin-$rev/dsmc.js" "${short[@]}"
      run "wedge-$n-new-short" node bin/dsmc.js "${short[@]}" --ranks "$n"
      run "wedge-$n-$rev-short" node "bin-$rev/dsmc.js" "${short[@]}" --ranks "$n"
      ;;
    permute-ab)
      # BUILDS="BASE": the cell words placed by the order instead of gathered by the permute, this build against the
      # base, interleaved: the box on one GPU (--detail, then plain twice), the collide benchmark (1e8), the box on N
      # ranks, the wedge on one GPU (plain)
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      one_gpu_ab "$rev"
      if [ "$n" -gt 1 ]; then
        run "box-$n-new" "${box[@]}" --ranks "$n"
        run "box-$n-$rev" "${basebox[@]}" --ranks "$n"
      fi
      run wedge-1-new "${wedge[@]}"
      run "wedge-1-$rev" "${basewedge[@]}"
      ;;
    ranks-ab)
      # BUILDS="BASE": a rank's own work, this build against the base, interleaved: the box and the wedge's default on N
      # ranks (sharing the GPUs there are) with --detail (each rank's stages, the halo pass's apart), then plain, REPS
      # times (default 2)
      unpack_builds
      rev=${BUILDS%% *}
      base_cases "$rev"
      run "box-$n-new-detail" "${box[@]}" --ranks "$n" --detail
      run "box-$n-$rev-detail" "${basebox[@]}" --ranks "$n" --detail
      run "wedge-$n-new-detail" "${wedge[@]}" --ranks "$n" --detail
      run "wedge-$n-$rev-detail" "${basewedge[@]}" --ranks "$n" --detail
      for k in $(seq "${REPS:-2}"); do
        run "box-$n-new-$k" "${box[@]}" --ranks "$n"
        run "box-$n-$rev-$k" "${basebox[@]}" --ranks "$n"
        run "wedge-$n-new-$k" "${wedge[@]}" --ranks "$n"
        run "wedge-$n-$rev-$k" "${basewedge[@]}" --ranks "$n"
      done
      ;;
    wedge-1-ab)
      # BUILDS="BASE": the wedge on one GPU, this build against the base, interleaved, --detail (the move's stage) then
      # plain (the flight's walk through cells with bodies)
      unpack_builds
      rev=${BUILDS%% *}
      for extra in --detail ""; do
        tag=${extra:+-detail}
        run "wedge-1-new$tag" "${wedge[@]}" $extra
        run "wedge-1-$rev$tag" node "bin-$rev/dsmc.js" run hypersonic-wedge --set run.steps=1500 --set sampling.start=1000 $extra
      done
      ;;
    subgroup-ab)
      # the move's count by runs of equal cells in a subgroup (the default where the device has subgroups) against one
      # atomic a particle (DSMC_SUBGROUPS=0), the same build, interleaved: the box and the wedge on one GPU with
      # --detail (the move's stage) and plain, REPS times (1); the collide benchmark (ONE_GPU=0 leaves these out); then on N
      # ranks (sharing the GPUs there are)
      for k in $(seq "${REPS:-1}"); do
        for extra in --detail ""; do
          tag=${extra:+-detail}
          [ "${ONE_GPU:-1}" = 1 ] || continue
          run "box-1-sg$tag-$k" "${box[@]}" $extra
          run "box-1-atomic$tag-$k" env DSMC_SUBGROUPS=0 "${box[@]}" $extra
          run "wedge-1-sg$tag-$k" "${wedge[@]}" $extra
          run "wedge-1-atomic$tag-$k" env DSMC_SUBGROUPS=0 "${wedge[@]}" $extra
        done
      done
      if [ "${ONE_GPU:-1}" = 1 ]; then
        run bench-sg node bin/dsmc.js bench --particles 1e8
        run bench-atomic env DSMC_SUBGROUPS=0 node bin/dsmc.js bench --particles 1e8
      fi
      [ "$n" -gt 1 ] || continue
      run "box-$n-sg" "${box[@]}" --ranks "$n"
      run "box-$n-atomic" env DSMC_SUBGROUPS=0 "${box[@]}" --ranks "$n"
      run "wedge-$n-sg" "${wedge[@]}" --ranks "$n"
      run "wedge-$n-atomic" env DSMC_SUBGROUPS=0 "${wedge[@]}" --ranks "$n"
      ;;
    *) echo "unknown part $part (ab, knobs, studies, timeline, wedge, wedge-balance, wedge-final, eight)"; exit 2 ;;
  esac
done
# (a nested part that ran last has packed the runs already)
[ -d "$out/runs" ] && tar czf "$out/runs.tar.gz" -C "$out" runs
rm -rf "$out/runs" "$out/data" "$out/timeline"
