import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-web.ts', 'test/support/pg-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one file at a time on a two-core
    // machine. Most files wait on sockets, fsync, child processes or a browser, so two at once
    // finish the suite sooner there (three starved the crash and shutdown tests on a loaded machine).
    maxWorkers: 2,
    // A worker keeps its modules from one file to the next instead of loading the server, the
    // rules and their data afresh for each of 140 files (that loading was a quarter of the suite's
    // CPU time, and the engines run warm). The files share no state through modules: each makes
    // its own data folders, servers, stores and schemas, and restores what it spies on.
    isolate: false,
  },
});
