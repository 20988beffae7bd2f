/**
 * Built JavaScript run without `--enable-source-maps`: the throw site must still name the `.ts`
 * file and line, through the `sourceMappingURL` next to the generated code.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { debugExceptionHeaders, flattenError } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'switchboard-sourcemap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOURCE = [
  "type Reason = 'gone';",
  '',
  'interface Options {',
  '  reason: Reason;',
  '}',
  '',
  'export function fail(options: Options): never {',
  '  throw new Error(`failed: ${options.reason}`);',
  '}',
  '',
].join('\n');

/** Compiles SOURCE as tsc would for dist/: `fail.js` + `fail.js.map`, `fail.ts` beside them. */
function build(name: string, inlineMap: boolean): { file: string; code: string } {
  const output = ts.transpileModule(SOURCE, {
    fileName: `${name}.ts`,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: !inlineMap, inlineSourceMap: inlineMap },
  });
  writeFileSync(join(dir, `${name}.ts`), SOURCE);
  writeFileSync(join(dir, `${name}.js`), output.outputText);
  if (output.sourceMapText !== undefined) writeFileSync(join(dir, `${name}.js.map`), output.sourceMapText);
  return { file: join(dir, `${name}.js`), code: output.outputText };
}

/**
 * An error as Node reports it from the generated file without `--enable-source-maps`. (Importing
 * the file here would not do: vitest maps the stacks of everything it loads.)
 */
function thrownIn(file: string, code: string): Error {
  const lines = code.split('\n');
  const line = lines.findIndex((text) => text.includes('throw new Error')) + 1;
  const column = lines[line - 1]!.indexOf('throw') + 1;
  const error = new Error('failed: gone');
  error.stack = `Error: failed: gone\n    at fail (${pathToFileURL(file).href}:${line}:${column})\n    at main (${file}:1:1)`;
  return error;
}

describe('source maps', () => {
  for (const inline of [false, true]) {
    it(`maps the throw site of built code to the .ts line (${inline ? 'inline map' : 'map file'})`, () => {
      const { file: js, code } = build(inline ? 'inline' : 'external', inline);
      const error = thrownIn(js, code);
      const flat = flattenError(error, { sourceLines: 0 });
      expect(flat.file).toBe(js.replace(/\.js$/, '.ts'));
      expect(flat.line).toBe(8);
      expect(debugExceptionHeaders(flat)['x-debug-exception-file']).toMatch(/\.ts:8$/);
      const withSource = flattenError(error, { sourceLines: 1 });
      expect(withSource.frames[0]!.excerpt?.lines[1]).toBe('  throw new Error(`failed: ${options.reason}`);');
    });
  }

  it('keeps the generated position when there is no map', () => {
    const file = join(dir, 'plain.js');
    const code = "export function fail() {\n  throw new Error('plain');\n}\n";
    writeFileSync(file, code);
    const error = thrownIn(file, code);
    expect(flattenError(error)).toMatchObject({ file, line: 2 });
  });
});
