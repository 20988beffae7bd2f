import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { SourceExcerpt } from '@switchboard/error-controller';

/** Source files larger than this are not read for a page. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Only source code: a stored frame never makes the page read another kind of file. */
const SOURCE_FILE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

/**
 * Reads the lines around `line` of `file`, when the exception panel is opened (never while the
 * request runs). Each file is read once per page.
 */
export class SourceExcerpts {
  readonly #files = new Map<string, Promise<readonly string[] | null>>();

  async around(file: string | null, line: number | null, radius = 5): Promise<SourceExcerpt | null> {
    if (file === null || line === null || !isAbsolute(file) || !SOURCE_FILE.test(file)) return null;
    let pending = this.#files.get(file);
    if (pending === undefined) {
      pending = read(file);
      this.#files.set(file, pending);
    }
    const lines = await pending;
    if (lines === null || line < 1 || line > lines.length) return null;
    const first = Math.max(1, line - radius);
    return { firstLine: first, lines: lines.slice(first - 1, Math.min(lines.length, line + radius)), highlighted: line };
  }
}

async function read(file: string): Promise<readonly string[] | null> {
  try {
    if ((await stat(file)).size > MAX_FILE_BYTES) return null;
    return (await readFile(file, 'utf8')).split(/\r?\n/);
  } catch {
    return null;
  }
}
