import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/support/slow-files-first.js';
import { filesNeedingTheirOwnProcess, slowFilesSharingProcesses, TEST_FILE_GLOBS } from './test/support/test-files.js';

// Test files import the TypeScript sources: the `@switchboard/source` export condition points
// every workspace package at its `src/index.ts`. The processes they start (host, password checker,
// cluster workers) run the JavaScript that the global setup `built-packages.ts` compiles first.
const sources = {
  resolve: { conditions: ['@switchboard/source'] },
  ssr: { resolve: { conditions: ['@switchboard/source'] } },
};
// Timeouts only catch hangs: tests start real processes, databases and browsers, which on a
// machine with both cores busy take many times longer than on a quiet one. No test relies on them.
const timeouts = { testTimeout: 120_000, hookTimeout: 120_000 };
const ownProcess = filesNeedingTheirOwnProcess(import.meta.dirname);
const slowShared = slowFilesSharingProcesses(import.meta.dirname);

export default defineConfig({
  ...sources,
  test: {
    globalSetup: ['test/support/scratch-tmpdir.ts', 'test/support/built-packages.ts', 'test/support/run-postgres.ts'],
    // Most test files wait on real servers and child processes rather than compute: three files at
    // a time keep two cores busy (measured on this machine: one at a time took 6m00s against 4m37s;
    // four at a time, 272 s of vitest against 251 s).
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
        // Files that start processes, servers, databases or browsers share worker processes too: each
        // imports the example host (every package) through vitest's transform, seconds of CPU per
        // file when each had a process of its own.
        ...sources,
        test: { name: 'real-processes', include: slowShared, pool: 'forks', isolate: false, ...timeouts },
      },
      {
        // Unit and in-process HTTP tests share worker processes: the packages are imported once
        // per worker, not once per file (a third of the CPU time of these files).
        ...sources,
        test: {
          name: 'shared-process',
          include: TEST_FILE_GLOBS,
          exclude: [...configDefaults.exclude, ...ownProcess, ...slowShared],
          pool: 'forks',
          isolate: false,
          ...timeouts,
        },
      },
    ],
  },
});
