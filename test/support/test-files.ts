import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where test files live, as vitest globs. */
export const TEST_FILE_GLOBS = ['packages/*/{src,test}/**/*.test.ts', 'examples/*/{src,test}/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * What makes a test file take seconds rather than milliseconds, and what it must not share a
 * process for: it starts real processes, servers with databases, browsers, runs a thousand
 * property cases, or measures the heap after a full garbage collection.
 */
const STARTS_REAL_PROCESSES =
  /startHost(?:Process|InProcess)|buildHostInProcess|createApp\(|startPostgres|startPglite|pgliteDataFolder|wireDatabase|launchChromium|chromium\.launch|RedisServer\.start|execFile|spawn\(|numRuns: 1000|setFlagsFromString/;
/** What a test file changes for the whole process: it needs a process of its own too. */
const CHANGES_THE_PROCESS =
  /vi\.(?:mock|doMock|stubGlobal|stubEnv)\(|process\.env\[[^\]]+\]\s*=[^=]|process\.env\.\w+\s*=[^=]|process\.chdir\(/;

export function startsRealProcesses(source: string): boolean {
  return STARTS_REAL_PROCESSES.test(source);
}

/**
 * Test files that run in a process of their own (vitest's `isolate`): those that start real
 * processes, servers with databases or browsers, or change the process. The others, unit tests
 * and in-process HTTP tests, share worker processes, so the packages' modules are imported once
 * per worker rather than once per file. Paths relative to `root`.
 */
export function filesNeedingTheirOwnProcess(root: string): string[] {
  return testFiles(root).filter((file) => {
    const source = readFileSync(join(root, file), 'utf8');
    return startsRealProcesses(source) || CHANGES_THE_PROCESS.test(source);
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
