import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOfOtherTestFolders } from './support/test-imports.js';

/**
 * A package's tests are its own: no test, benchmark or example reaches into another package's
 * `test/` folder. What several packages' tests need (servers, certificates, fixtures) is in the
 * test kit, `test/kit/`; what storage authors need is published (`@switchboard/profiler/testing`).
 */
describe("imports of another package's test folder", () => {
  it('are none', () => {
    expect(importsOfOtherTestFolders(fileURLToPath(new URL('..', import.meta.url)))).toEqual([]);
  });

  it('are found from a package, an example and the workspace folders, dynamic ones too; the own folder and the kit are fine', () => {
    const root = mkdtempSync(join(tmpdir(), 'test-imports-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      write('packages/a/test/support/server.ts', 'export const server = 1;\n');
      write('packages/a/test/a.test.ts', "import { server } from './support/server.js';\nimport '../../../test/kit/index.js';\n");
      write('packages/b/test/b.test.ts', "import { server } from '../../a/test/support/server.js';\n");
      write('examples/host/test/host.test.ts', "const { server } = await import('../../../packages/a/test/support/server.js');\n");
      write('bench/a.bench.ts', "export { server } from '../packages/a/test/support/server.js';\n");
      write('test/kit/index.ts', 'export {};\n');
      expect(importsOfOtherTestFolders(root)).toEqual([
        'bench/a.bench.ts → packages/a/test/support/server.js',
        'examples/host/test/host.test.ts → packages/a/test/support/server.js',
        'packages/b/test/b.test.ts → packages/a/test/support/server.js',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
