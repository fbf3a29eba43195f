#!/usr/bin/env bash
# Builds of several commits side by side, for finding which commit changed a device measurement (issue 24: the
# 4-rank wedge ran at 1.78e10 with 542949a and 1.19e10 with 537b62b on one machine).
#   pack REV...   (this machine) compiles each commit in a temporary worktree into out-REV/ with its own shaders and
#                 packs them into .device-carry/builds.tar.xz (the current node_modules serve every build)
#   run N STEPS REV...  (device machine, after `source .device-carry/setup.sh`) unpacks the builds and runs the
#                 hypersonic wedge at full size (STEPS steps, sampled from STEPS - 500) on N ranks with each build in
#                 turn, then again in reverse order, printing one line per run (throughput, loop, "other" seconds,
#                 exchange and GPU ms per step, fields); BISECT_SET adds --set options (a shrunk wedge for a CPU check),
#                 BISECT_ONEWAY=1 runs the list once in the order given, BISECT_TIMEOUT limits each run (seconds, 300)
# Usage: bash bench/bisect-builds.sh pack 1901f17 491b194 HEAD
#        source .device-carry/setup.sh && bash bench/bisect-builds.sh run 4 1500 1901f17 491b194 HEAD
set -uo pipefail
mode=${1:?pack or run}; shift
case "$mode" in
  pack)
    root=$(pwd); tmp=$(mktemp -d)
    for rev in "$@"; do
      git worktree add -q "$tmp/wt-$rev" "$rev" || exit 1
      ln -s "$root/node_modules" "$tmp/wt-$rev/node_modules"
      (cd "$tmp/wt-$rev" && npx tsc -p tsconfig.json --outDir "$tmp/builds/out-$rev") || exit 1
      cp -r "$tmp/wt-$rev/shaders" "$tmp/builds/out-$rev/shaders"
      git worktree remove --force "$tmp/wt-$rev"
    done
    tar cJf .device-carry/builds.tar.xz -C "$tmp/builds" . && rm -rf "$tmp"
    ls -la .device-carry/builds.tar.xz
    ;;
  run)
    n=${1:-4}; steps=${2:-1500}; shift 2
    tar xJf .device-carry/builds.tar.xz
    out=${OUT:-bench-out}; mkdir -p "$out"
    order=("$@"); [ -n "${BISECT_ONEWAY:-}" ] || for ((k = $# - 1; k >= 0; k--)); do order+=("${order[$k]}"); done
    for rev in "${order[@]}"; do
      mkdir -p "bin-$rev"
      sed "s#\.\./out/src-main#../out-$rev/src-main#" bin/dsmc.js > "bin-$rev/dsmc.js"
      ln -sfn ../resources "out-$rev/resources"
      f="$out/$rev-$(date +%s).json"; t0=$SECONDS
      timeout ${BISECT_TIMEOUT:-300} node "bin-$rev/dsmc.js" run hypersonic-wedge --set run.steps="$steps" --set sampling.start=$((steps - 500)) \
        ${BISECT_SET:-} --ranks "$n" --no-save --json --no-progress > "$f" 2> "${f%.json}.err"
      node -e "
        const s = JSON.parse(require('fs').readFileSync('$f', 'utf8').trim().split('\n').pop());
        const ms = (k) => s.phases[k] ? (1000 * s.phases[k].totalSeconds / s.steps).toFixed(3) : '-';
        console.log('$rev', s.particleStepsPerSecond.toExponential(3), 'loop', s.seconds.toFixed(2), 'other', (s.otherSeconds ?? 0).toFixed(2),
          'wall', $((SECONDS - t0)), 'exchange', ms('exchange'), 'move', ms('move'), 'sort', ms('sort'), 'collide', ms('collide'), 'fields', s.fieldsSha256.slice(0, 16));
      " 2>/dev/null || { echo "$rev failed"; tail -3 "${f%.json}.err"; }
    done
    ;;
  *) echo "bisect-builds.sh: pack REV... | run N STEPS REV..."; exit 2 ;;
esac
