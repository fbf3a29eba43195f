// The tiny cases of the checkpoint CLI tests, as `dsmc run` arguments: a collide box and a walled inflow/outflow
// channel (as in test/cluster/invariance-in-process.test.ts), sampled, with a checkpoint every 20 steps.

/** Collide-box physics on 12 x 10 x 8 cells. */
export const BOX = ['collide-box', '--set', 'grid.cells=[12,10,8]', '--set', 'run.steps=200', '--set', 'run.stepsPerSubmit=5', '--set', 'sampling.start=20'];

/** Inflow at xmin, outflow at xmax, diffuse walls at y (one moving), periodic z, from an empty box. */
export const CHANNEL = ['free-stream', '--set', 'grid.cells=[16,6,4]', '--set', 'run.steps=200', '--set', 'run.stepsPerSubmit=5', '--set', 'sampling.start=50',
  '--set', 'boundaries.ymin={"type":"diffuse","temperature":500}', '--set', 'boundaries.ymax={"type":"diffuse","temperature":300,"velocity":[200,0,0]}'];

/** The channel with vibrating N2 (Zvib 5) and a wall at 1500 K: rotational and vibrational energy in the checkpoints. */
export const MOLECULAR_CHANNEL = [...CHANNEL, '--set', 'species=[{"use":"N2","vibration":{"characteristicTemperature":3371,"relaxation":5,"millikanWhite":false}}]',
  '--set', 'boundaries.ymin={"type":"diffuse","temperature":1500}'];

/** Steps between checkpoints in these tests. */
export const EVERY = 20;

/** A case's arguments with checkpoints on. */
export function withCheckpoints(args: string[]): string[] {
  return [...args, '--set', `run.checkpointEvery=${EVERY}`];
}
