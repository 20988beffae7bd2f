import { readFileSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';

/** Lines of source around a frame, for the debug page. */
export interface SourceExcerpt {
  /** Number of the first line in `lines` (1-based). */
  readonly firstLine: number;
  readonly lines: readonly string[];
  /** The line the frame points at. */
  readonly highlighted: number;
}

/** Files larger than this are not read: the page must stay fast and small. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Reads files for excerpts, each at most once per reader. One reader serves one flattening, so an
 * error page reads each file of its trace once and nothing outlives the request.
 */
export class SourceExcerptReader {
  readonly #files = new Map<string, readonly string[] | null>();

  excerpt(file: string | null, line: number | null, radius: number): SourceExcerpt | null {
    if (file === null || line === null || radius < 0) return null;
    const lines = this.#read(file);
    if (lines === null || line < 1 || line > lines.length) return null;
    const first = Math.max(1, line - radius);
    const last = Math.min(lines.length, line + radius);
    return { firstLine: first, lines: lines.slice(first - 1, last), highlighted: line };
  }

  #read(file: string): readonly string[] | null {
    if (this.#files.has(file)) return this.#files.get(file)!;
    let lines: readonly string[] | null = null;
    // Only real files on disk: never `node:` internals, URLs or relative names.
    if (isAbsolute(file)) {
      try {
        if (statSync(file).size <= MAX_FILE_BYTES) lines = readFileSync(file, 'utf8').split(/\r?\n/);
      } catch {
        lines = null;
      }
    }
    this.#files.set(file, lines);
    return lines;
  }
}
