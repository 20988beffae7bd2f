import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every TypeScript source under the packages' and examples' `src` folders. */
function sources(): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) found.push(path);
    }
  };
  for (const group of ['packages', 'examples']) {
    for (const project of readdirSync(join(root, group), { withFileTypes: true })) {
      if (project.isDirectory()) {
        const src = join(root, group, project.name, 'src');
        try {
          walk(src);
        } catch {
          // A project without sources of its own.
        }
      }
    }
  }
  return found;
}

/**
 * A listener that only makes sense for the main request says so in its subscriber tuple
 * (`{ mainRequestOnly: true }`): the dispatcher then skips it for sub-requests, which costs an
 * error page nothing. A guard written at the top of the listener would still be called.
 */
describe('listeners for the main request only', () => {
  it('are declared so, never guarded by hand with an early return', () => {
    const guard = /if \(!event\.isMainRequest\(\)\s*(\)\s*return\b|\|\|)/;
    const guarded = sources()
      .filter((path) => guard.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path));
    expect(guarded).toEqual([]);
  });
});
