import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/support/slow-files-first.js';

// Tests run on the TypeScript sources: the `@switchboard/source` export condition points every
// workspace package at its `src/index.ts`, so no build step stands between an edit and a test.
export default defineConfig({
  resolve: { conditions: ['@switchboard/source'] },
  ssr: { resolve: { conditions: ['@switchboard/source'] } },
  test: {
    include: ['packages/*/{src,test}/**/*.test.ts', 'examples/*/{src,test}/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/scratch-tmpdir.ts'],
    pool: 'forks',
    // Most test files wait on real servers and child processes rather than compute: three files at
    // a time keep two cores busy (4m37s against 6m00s with one at a time, measured on this machine).
    maxWorkers: 3,
    // Longest files first (the previous run's durations, or which files start real processes), so
    // the run does not end with one worker busy on a long file while the others sit idle.
    sequence: { sequencer: SlowFilesFirst },
    // Timeouts only catch hangs: tests start real processes, databases and browsers, which on a
    // machine with both cores busy take many times longer than on a quiet one. No test relies on them.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
