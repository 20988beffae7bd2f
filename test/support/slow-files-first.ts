import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { startsRealProcesses } from './test-files.js';

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
    const path = relative(this.ctx.config.root, file.moduleId);
    // Its own project first; a file moved to another project (the split is read from its source) keeps its duration.
    const projects = [file.project.name, ...this.ctx.projects.map((project) => project.name)];
    const last = projects.map((name) => this.ctx.cache.getFileTestResults(`${name}:${path}`)).find((result) => result !== undefined);
    if (last !== undefined) return last.failed ? Number.MAX_SAFE_INTEGER : last.duration;
    const source = readFileSync(file.moduleId, 'utf8');
    // The size breaks ties, as vitest's own order does: larger files first.
    return (startsRealProcesses(source) ? SLOW_FILE_ESTIMATE_MS : 0) + source.length / 1000;
  }
}
