// Vitest: unit tests (pure logic), GPU tests on the default adapter (lavapipe in CI), CLI tests, the app's
// services, server and end-to-end tests, and renderer component tests (.vue files through the Vue plugin;
// those files pick happy-dom with a `// @vitest-environment happy-dom` comment).
//
// Two projects. `parallel`: every file but those below, two files at a time (DSMC_TEST_WORKERS to change it). On
// lavapipe a GPU test file keeps about one core busy (measured: bodies 126 s wall for 101 s of CPU, wedge 142 s for
// 123 s, sample-accumulation 108 s for 48 s), so on an idle 2-core machine a second file uses the other core. On a
// machine other jobs already load there is no gain (bodies + rotation + wedge + sample-accumulation: 300 s with two
// workers, 278 s with one, at load average 5-7): DSMC_TEST_WORKERS=1 runs them one at a time.
// `serial`: files with wall-clock limits (a hang detected within 3 s, a kill within 2 s, a check within 3 s), the
// real Slurm cluster and the end-to-end browser tests; they run afterwards, one file at a time in one fork.
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

/** Files that measure wall-clock time or start heavy system services: never beside another file. */
const SERIAL = [
  'test/e2e/**/*.test.ts',
  'test/slurm/slurm-cluster.test.ts',
  'test/cluster/supervisor.test.ts',
  'test/cluster/multi-rank-run.test.ts',
  'test/store/studies.test.ts',
  'test/unit/geometry-checks.test.ts',
];

/** Test files run at once in the parallel project (two by default; 1 runs everything one after another). */
const workers = Math.max(1, Number(process.env.DSMC_TEST_WORKERS ?? 2) || 2);

export default defineConfig({
  plugins: [vue()],
  test: {
    testTimeout: 900_000,
    hookTimeout: 300_000,
    pool: 'forks',
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
