import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph, importGraph } from './support/import-graph.js';

/**
 * No two source files import each other, even through others and even for types only: a reader
 * follows a file's imports down without coming back. `node --import tsx test/support/import-graph.ts`
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

  it("keep the kernel's contract, events and kernel folders out of folder cycles", () => {
    const kernelFolders = cycles(folderGraph(importGraph(join(packages, 'http-kernel', 'src'))));
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
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
