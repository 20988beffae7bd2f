import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportLists } from './support/export-lists.js';

/**
 * What each package exports, per entry point: pinned in `__snapshots__/export-lists.txt` (one name a line, under its entry point), so a
 * name that appears or goes away shows in review, and the counts `docs/architecture.md` states
 * ("Public surface") stay true. After an intended change (a new export, a new package):
 * `npx vitest run test/export-lists.test.ts -u`, then update the table in docs/architecture.md
 * with the counts the failing test prints.
 */
const lists = exportLists(fileURLToPath(new URL('../packages/', import.meta.url)));

describe('export lists', () => {
  it('are the pinned ones', async () => {
    const text = Object.entries(lists)
      .flatMap(([pkg, entries]) =>
        Object.entries(entries).flatMap(([entry, names]) => [
          `${pkg}${entry === '.' ? '' : entry.slice(1)}`,
          ...names.map((name) => `  ${name}`),
        ]),
      )
      .join('\n');
    await expect(`${text}\n`).toMatchFileSnapshot('./__snapshots__/export-lists.txt');
  });

  it("are counted right in docs/architecture.md's public-surface table", () => {
    const doc = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Public surface'));
    const stated = [...section.matchAll(/^\| `(@switchboard\/[\w-]+)(\/[\w-]+)?` +\| +(\d+) +\| +(\d+) +\|$/gm)].map(
      ([, pkg, sub, values, types]) => `${pkg}${sub ?? ''}: ${values} values, ${types} types`,
    );
    const actual = Object.entries(lists).flatMap(([pkg, entries]) =>
      Object.entries(entries).map(([entry, names]) => {
        const types = names.filter((name) => name.startsWith('type ')).length;
        return `${pkg}${entry === '.' ? '' : entry.slice(1)}: ${names.length - types} values, ${types} types`;
      }),
    );
    expect(stated).toEqual(actual);
  });

  it('have every subpath entry listed in docs/architecture.md\'s "Where things are"', () => {
    const doc = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Where things are'), doc.indexOf('## The lifecycle'));
    const subpaths = Object.entries(lists).flatMap(([pkg, entries]) =>
      Object.keys(entries)
        .filter((entry) => entry !== '.')
        .map((entry) => `${pkg}${entry.slice(1)}`),
    );
    expect(subpaths.filter((entry) => !section.includes(`\`${entry}\``))).toEqual([]);
  });
});
