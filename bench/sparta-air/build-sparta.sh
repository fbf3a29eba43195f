#!/usr/bin/env bash
# Build SPARTA (serial, STUBS MPI) from a bare git mirror, for the side-by-side
# chemistry check of issue 28. Nothing of SPARTA's source is copied into this
# repository: it is extracted into a build directory outside the work tree.
#
# usage: bench/sparta-air/build-sparta.sh [MIRROR_GIT_DIR] [BUILD_DIR]
#   MIRROR_GIT_DIR  default /work/.mirror/sparta+sparta/repo (a bare repo)
#   BUILD_DIR       default ${SPARTA_BUILD_DIR:-/tmp/sparta-build}
# env: SPARTA_REF (default HEAD), JOBS (default nproc)
# Prints the absolute path of the serial executable (spa_serial) on its last
# line of stdout. Idempotent: if the executable already exists for the same
# commit, it only prints the path.
set -euo pipefail
MIRROR="${1:-/work/.mirror/sparta+sparta/repo}"
BUILD="${2:-${SPARTA_BUILD_DIR:-/tmp/sparta-build}}"
REF="${SPARTA_REF:-HEAD}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
G=(git --git-dir="$MIRROR")
COMMIT="$("${G[@]}" rev-parse "$REF^{commit}")"
EXE="$BUILD/src/spa_serial"
if [[ -x "$EXE" && -f "$BUILD/COMMIT" && "$(cat "$BUILD/COMMIT")" == "$COMMIT" ]]; then
  echo "already built: SPARTA $COMMIT" >&2
  echo "$EXE"
  exit 0
fi
echo "building SPARTA $COMMIT in $BUILD" >&2
rm -rf "$BUILD"
mkdir -p "$BUILD"
# Only src/ and lib/ are needed to build; (this mirror lacks a few large blobs
# under data/ and doc/, so `git archive HEAD` of the whole tree fails).
"${G[@]}" archive "$COMMIT" src lib | tar x -C "$BUILD"
# data/air.* for reference only (our own species/vss/tce files are used); git may print
# "error: invalid object ... data/apollo.stl" here (a blob missing from the mirror): harmless
mkdir -p "$BUILD/data"
for f in air.species air.vss air.tce; do
  "${G[@]}" show "$COMMIT:data/$f" > "$BUILD/data/$f"
done
( cd "$BUILD/src/STUBS" && make >&2 )
( cd "$BUILD/src" && make -j"$JOBS" serial >&2 )
[[ -x "$EXE" ]] || { echo "build failed: no $EXE" >&2; exit 1; }
echo "$COMMIT" > "$BUILD/COMMIT"
echo "$EXE"
