// Vitest: unit tests (pure logic), GPU tests on the default adapter (lavapipe in CI), CLI tests, the app's
// services, server and end-to-end tests, and renderer component tests (.vue files through the Vue plugin;
// those files pick happy-dom with a `// @vitest-environment happy-dom` comment).
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // GPU tests share one software GPU on two cores: run files one after another
    fileParallelism: false,
  },
});
