// Vitest: unit tests (pure logic), GPU tests on the default adapter (lavapipe in CI), CLI tests.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // GPU tests share one software GPU on two cores: run files one after another
    fileParallelism: false,
  },
});
