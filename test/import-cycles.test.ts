import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, entryFiles, folderGraph, importGraph } from './support/import-graph.js';

/**
 * No two source files import each other, even through others and even for types only: a reader
 * follows a file's imports down without coming back. The same holds between the folders of a
 * package, but for the few folder cycles docs/architecture.md names and explains. `node --import tsx test/support/import-graph.ts`
 * lists the cycles (of files and of folders) of every package.
 */
const packages = fileURLToPath(new URL('../packages/', import.meta.url));
const names = readdirSync(packages)
  .filter((name) => !name.startsWith('.'))
  .sort();

describe('imports between source files', () => {
  it('have no cycle in any package', () => {
    const found = names.flatMap((name) => cycles(importGraph(join(packages, name, 'src'))).map((cycle) => `${name}: ${cycle.join(' ↔ ')}`));
    expect(found).toEqual([]);
  });

  it('have no folder cycle in any package but those docs/architecture.md explains', () => {
    const found = names.flatMap((name) =>
      cycles(folderGraph(importGraph(join(packages, name, 'src')), entryFiles(join(packages, name)))).map(
        (cycle) => `${name}: ${cycle.join(' ↔ ')}`,
      ),
    );
    const architecture = readFileSync(fileURLToPath(new URL('../docs/architecture.md', import.meta.url)), 'utf8');
    const explained = [...architecture.matchAll(/^- `([\w-]+: [^`]+ ↔ [^`]+)`/gm)].map((match) => match[1]);
    expect(found).toEqual(explained);
  });

  it("keep the kernel's contract, events and kernel folders out of folder cycles", () => {
    const kernel = join(packages, 'http-kernel');
    const kernelFolders = cycles(folderGraph(importGraph(join(kernel, 'src')), entryFiles(kernel)));
    expect(kernelFolders.flat().filter((folder) => ['contract', 'event', 'kernel'].includes(folder))).toEqual([]);
  });

  it('finds a cycle, types and re-exports included', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['a.ts'])],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
    try {
      mkdirSync(join(dir, 'http'));
      writeFileSync(join(dir, 'http', 'request.ts'), "import type { Stack } from '../stack.js';\nexport class Request {}\n");
      writeFileSync(join(dir, 'stack.ts'), "export {\n  Request,\n} from './http/request.js';\nexport class Stack {}\n");
      expect(cycles(importGraph(dir))).toEqual([['http/request.ts', 'stack.ts']]);
      // As folders: `.` and `http` import each other, unless `stack.ts` is an entry point.
      expect(cycles(folderGraph(importGraph(dir)))).toEqual([['.', 'http']]);
      expect(cycles(folderGraph(importGraph(dir), new Set(['stack.ts'])))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
