// Vitest: unit tests (pure logic), GPU tests on the default adapter (lavapipe in CI), CLI tests, the app's
// services, server and end-to-end tests, and renderer component tests (.vue files through the Vue plugin;
// those files pick happy-dom with a `// @vitest-environment happy-dom` comment).
//
// Two projects. `parallel`: every file but those below, two files at a time (DSMC_TEST_WORKERS=1 runs one at a time,
// DSMC_TEST_WORKERS=N runs N). A test must not block its worker's event loop for long: vitest's worker gives up on
// its main process after 60 s without an answer ("Timeout calling onTaskUpdate") and the whole run ends. With two
// files on two cores a blocking spawnSync of a CLI run once did that, so the tests run child processes through
// test/helpers/run-process.ts (asynchronous) and long synchronous loops yield (test/readme.md).
// `serial`: files with wall-clock limits (a hang detected within 3 s, a kill within 2 s, a check within 3 s), the
// real Slurm cluster and the end-to-end browser tests; they run afterwards, one file at a time in one fork.
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/longest-first.js';

/** Files that measure wall-clock time or start heavy system services: never beside another file. */
const SERIAL = [
  'test/e2e/**/*.test.ts',
  'test/slurm/slurm-cluster.test.ts',
  'test/cluster/supervisor.test.ts',
  'test/cluster/multi-rank-run.test.ts',
  'test/store/studies.test.ts',
  'test/unit/geometry-checks.test.ts',
];

/** Test files run at once in the parallel project (two by default; DSMC_TEST_WORKERS=1 for one at a time). */
const workers = Math.max(1, Number(process.env.DSMC_TEST_WORKERS ?? 2) || 2);

export default defineConfig({
  plugins: [vue()],
  test: {
    testTimeout: 900_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // without timings of its own (a fresh clone) vitest starts the files that took longest last time first
    sequence: { sequencer: LongestFirstSequencer },
    maxWorkers: workers,
    minWorkers: 1,
    projects: [
      { extends: true, test: { name: 'parallel', include: ['test/**/*.test.ts'], exclude: SERIAL } },
      {
        extends: true,
        test: { name: 'serial', include: SERIAL, sequence: { groupOrder: 1 }, poolOptions: { forks: { singleFork: true } } },
      },
    ],
  },
});
