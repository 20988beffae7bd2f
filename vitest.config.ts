import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/support/slow-files-first.js';
import { filesNeedingTheirOwnProcess, TEST_FILE_GLOBS } from './test/support/test-files.js';

// Tests run on the TypeScript sources: the `@switchboard/source` export condition points every
// workspace package at its `src/index.ts`, so no build step stands between an edit and a test.
const sources = {
  resolve: { conditions: ['@switchboard/source'] },
  ssr: { resolve: { conditions: ['@switchboard/source'] } },
};
// Timeouts only catch hangs: tests start real processes, databases and browsers, which on a
// machine with both cores busy take many times longer than on a quiet one. No test relies on them.
const timeouts = { testTimeout: 120_000, hookTimeout: 120_000 };
const ownProcess = filesNeedingTheirOwnProcess(import.meta.dirname);

export default defineConfig({
  ...sources,
  test: {
    globalSetup: ['test/support/scratch-tmpdir.ts', 'test/support/built-packages.ts'],
    // Most test files wait on real servers and child processes rather than compute: three files at
    // a time keep two cores busy (4m37s against 6m00s with one at a time, measured on this machine).
    maxWorkers: 3,
    // Longest files first (the previous run's durations, or which files start real processes), so
    // the run does not end with one worker busy on a long file while the others sit idle.
    sequence: { sequencer: SlowFilesFirst },
    reporters: ['default'],
    projects: [
      {
        ...sources,
        test: { name: 'own-process', include: ownProcess, pool: 'forks', ...timeouts },
      },
      {
        // Unit and in-process HTTP tests share worker processes: the packages are imported once
        // per worker, not once per file (a third of the CPU time of these files).
        ...sources,
        test: {
          name: 'shared-process',
          include: TEST_FILE_GLOBS,
          exclude: [...configDefaults.exclude, ...ownProcess],
          pool: 'forks',
          isolate: false,
          ...timeouts,
        },
      },
    ],
  },
});
