import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument, formatOpenApiDocument } from '../src/index.js';
import { sampleOptions, sampleRoutes } from './support/sample-app.js';

const root = resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(join(tmpdir(), 'openapi-command-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The command from its source, as the published bin runs it from dist/. */
async function command(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const node = [process.execPath, '--conditions=@switchboard/source', '--import', 'tsx', 'packages/openapi/src/cli/main.ts'] as const;
  try {
    const { stdout, stderr } = await promisify(execFile)(node[0], [...node.slice(1), ...args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('switchboard-openapi', () => {
  const expected = formatOpenApiDocument(createOpenApiDocument(sampleRoutes(), sampleOptions));

  it('writes the document of a module exporting { routes, info, … } on stdout, the same text every time', { timeout: 60_000 }, async () => {
    const run = await command('packages/openapi/test/support/sample-app.ts');
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(expected);
    expect(expected.endsWith('}\n')).toBe(true);
  });

  it('writes to --output, from a named export that is a function', { timeout: 60_000 }, async () => {
    const module = join(work, 'app.mjs');
    writeFileSync(
      module,
      `export const openapi = async () => (await import(${JSON.stringify(resolve(root, 'packages/openapi/test/support/sample-app.ts'))})).default;\n`,
    );
    const output = join(work, 'openapi.json');
    const run = await command(module, '--export', 'openapi', '--output', output);
    expect([run.code, run.stdout]).toEqual([0, '']);
    expect(readFileSync(output, 'utf8')).toBe(expected);
  });

  it('fails with a clear message and a non-zero status', { timeout: 60_000 }, async () => {
    const module = join(work, 'empty.mjs');
    writeFileSync(module, 'export const other = 1;\n');
    expect(await command(module)).toMatchObject({
      code: 1,
      stderr: `switchboard-openapi: ${module} has no export "default" (it exports: other).\n`,
    });
    expect(await command()).toMatchObject({ code: 64, stderr: expect.stringContaining('Usage: switchboard-openapi <module>') });
  });
});
