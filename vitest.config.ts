import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-web.ts', 'test/support/pg-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one file at a time on a two-core
    // machine. Most files wait on sockets, fsync, child processes or a browser, so three at once
    // finish the suite far sooner there without starving anything.
    maxWorkers: 3,
  },
});
