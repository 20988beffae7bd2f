import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where test files live, as vitest globs. */
export const TEST_FILE_GLOBS = ['packages/*/{src,test}/**/*.test.ts', 'examples/*/{src,test}/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * What makes a test file take seconds rather than milliseconds: it starts real processes, servers
 * with databases or browsers, runs a thousand property cases, or measures the heap.
 */
const STARTS_REAL_PROCESSES =
  /startHost(?:Process|InProcess)|buildHostInProcess|createApp\(|startPostgres|createTestDatabase|idleDroppingDatabase|pgliteDataFolder|wireDatabase|launchChromium|chromium\.launch|RedisServer\.start|execFile|spawn\(|numRuns: 1000|setFlagsFromString/;
/**
 * What a test file changes for the whole process (mocks, globals, the environment, the working
 * folder, V8 flags), or measures of it (the heap after a full garbage collection): it needs a
 * process of its own.
 */
const CHANGES_THE_PROCESS =
  /vi\.(?:mock|doMock|stubGlobal|stubEnv)\(|process\.env\[[^\]]+\]\s*=[^=]|process\.env\.\w+\s*=[^=]|process\.chdir\(|setFlagsFromString/;

export function startsRealProcesses(source: string): boolean {
  return STARTS_REAL_PROCESSES.test(source);
}

/**
 * Test files that run in a process of their own (vitest's `isolate`): those that change the
 * process or measure it. Paths relative to `root`.
 */
export function filesNeedingTheirOwnProcess(root: string): string[] {
  return testFiles(root).filter((file) => CHANGES_THE_PROCESS.test(readFileSync(join(root, file), 'utf8')));
}

/**
 * Test files that start real processes, servers with databases or browsers, and leave the process
 * as they found it: they share worker processes, one file after the other, so that what they import
 * (the example host imports every package) is imported once per worker rather than once per file.
 * Paths relative to `root`.
 */
export function slowFilesSharingProcesses(root: string): string[] {
  return testFiles(root).filter((file) => {
    const source = readFileSync(join(root, file), 'utf8');
    return startsRealProcesses(source) && !CHANGES_THE_PROCESS.test(source);
  });
}

function testFiles(root: string): string[] {
  const folders = [
    ...['packages', 'examples'].flatMap((group) =>
      existsSync(join(root, group))
        ? readdirSync(join(root, group)).flatMap((name) => ['src', 'test'].map((part) => join(root, group, name, part)))
        : [],
    ),
    join(root, 'test'),
  ];
  return folders
    .filter((folder) => existsSync(folder))
    .flatMap((folder) =>
      readdirSync(folder, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.test.ts') && !file.split('/').includes('node_modules'))
        .map((file) => relative(root, join(folder, file))),
    )
    .sort();
}
