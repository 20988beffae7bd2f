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

/** Only source code: a frame never makes a page read another kind of file. */
const SOURCE_FILE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;
/** Files larger than this are not read: the page must stay fast and small. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** How many files' lines are kept between error pages (the sources an app's traces go through). */
const MAX_CACHED_FILES = 64;

interface CachedFile {
  readonly size: number;
  readonly mtimeMs: number;
  readonly lines: readonly string[] | null;
}

/**
 * Lines of recently read files, kept across error pages and checked against the file's size and
 * modification time before each use: an edited file is read again, an unchanged one is not read
 * and split per page (in debug mode every 404 renders a trace through the same few files).
 */
const recentFiles = new Map<string, CachedFile>();

/**
 * Reads source files for excerpts, each at most once per reader (one reader serves one page: the
 * debug error page's flattening, or the profiler's exception panel).
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
    // Only real source files on disk: never `node:` internals, URLs, relative names or other files.
    const lines = isAbsolute(file) && SOURCE_FILE.test(file) ? readLines(file) : null;
    this.#files.set(file, lines);
    return lines;
  }
}

function readLines(file: string): readonly string[] | null {
  let size: number;
  let mtimeMs: number;
  try {
    ({ size, mtimeMs } = statSync(file));
  } catch {
    return null;
  }
  const cached = recentFiles.get(file);
  if (cached !== undefined && cached.size === size && cached.mtimeMs === mtimeMs) return cached.lines;
  let lines: readonly string[] | null = null;
  if (size <= MAX_FILE_BYTES) {
    try {
      lines = readFileSync(file, 'utf8').split(/\r?\n/);
    } catch {
      lines = null;
    }
  }
  recentFiles.delete(file);
  if (recentFiles.size >= MAX_CACHED_FILES) recentFiles.delete(recentFiles.keys().next().value!);
  recentFiles.set(file, { size, mtimeMs, lines });
  return lines;
}
