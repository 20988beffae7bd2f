import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * What makes a test file take seconds rather than milliseconds: it starts real processes, servers,
 * databases or browsers, runs a thousand property cases, or loops until a full garbage collection.
 */
const SLOW_MARKERS =
  /startHost(?:Process|InProcess)|createApp\(|startPostgres|startPglite|pgliteDataFolder|wireDatabase|launchChromium|chromium\.launch|RedisServer\.start|execFile|spawn\(|numRuns: 1000|setFlagsFromString/;
/** How much a slow file is assumed to take when no earlier run says (milliseconds). */
const SLOW_FILE_ESTIMATE_MS = 20_000;

/**
 * Test files in order of expected duration, longest first, so that the last files to start are
 * short ones and no worker is left running a long file alone at the end. A file's duration comes
 * from vitest's cache of the previous run; without one (a fresh clone, CI), a file that starts
 * real processes counts as slow. Files that failed last time still run first.
 */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const expected = new Map(files.map((file) => [file, this.#expectedDuration(file)]));
    return [...files].sort((a, b) => expected.get(b)! - expected.get(a)!);
  }

  #expectedDuration(file: TestSpecification): number {
    const key = `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`;
    const last = this.ctx.cache.getFileTestResults(key);
    if (last !== undefined) return last.failed ? Number.MAX_SAFE_INTEGER : last.duration;
    const source = readFileSync(file.moduleId, 'utf8');
    // The size breaks ties, as vitest's own order does: larger files first.
    return (SLOW_MARKERS.test(source) ? SLOW_FILE_ESTIMATE_MS : 0) + source.length / 1000;
  }
}
