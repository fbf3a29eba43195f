#!/usr/bin/env bash
# Our side of the SPARTA comparison (issue 28, docs/results/2026-11-26-sparta-air): the adiabatic box of air from
# 20,000 K at SPARTA's setup (150,000 particles at n = 1e23 m^-3, 79 % N2 and 21 % O2, dt = 1 ns, 10,000 steps;
# library species with constant Zrot 5 and Zvib 50; 8 x 8 x 8 cells of a homogeneous gas instead of SPARTA's one, so
# that the GPU's one thread per cell has work), with the air5 reactions and each collision-energy model, SEEDS seeds
# each; CSVs (bench/air-relaxation.mjs, every 20 steps) to $OUT.
# Usage: bash bench/air-relaxation-runs.sh [SEEDS] [STEPS]
set -uo pipefail
out=${OUT:-bench-out}; mkdir -p "$out"
seeds=${1:-2}; steps=${2:-10000}
for model in rdof reactant-rotation; do
  for seed in $(seq 1 "$seeds"); do
    node -e "
      const vib = (t) => ({ characteristicTemperature: t, relaxation: 50, millikanWhite: false });
      const wall = { type: 'specular' };
      console.log(JSON.stringify({
        name: 'air relaxation $model seed $seed', grid: { cells: [8, 8, 8], cellSize: [1.25e-5, 1.25e-5, 1.25e-5] },
        species: [{ use: 'O2', vibration: vib(2256) }, { use: 'N2', vibration: vib(3371) }, { use: 'NO', vibration: vib(2719) }, { use: 'O' }, { use: 'N' }],
        particles: { fnum: 1e23 * 1e-12 / 150000 },
        initial: { numberDensity: 1e23, temperature: 20000, fractions: { N2: 0.79, O2: 0.21 } },
        boundaries: { xmin: wall, xmax: wall, ymin: wall, ymax: wall, zmin: wall, zmax: wall },
        run: { steps: $steps, dt: 1e-9, seed: $seed, stepsPerSubmit: 20 },
        reactions: { use: 'air5', collisionEnergy: '$model' },
        sampling: { enabled: false },
      }));" > "$out/case-$model-$seed.json"
    start=$(date +%s)
    node bench/air-relaxation.mjs "$out/case-$model-$seed.json" 20 "$out/ours.$model.s$seed.csv" 2>&1 | grep -v "^Warning"
    echo "$model seed $seed: $(( $(date +%s) - start )) s, $(tail -1 "$out/ours.$model.s$seed.csv")"
  done
done
