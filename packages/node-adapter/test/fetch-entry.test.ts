import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * `@switchboard/node-adapter/fetch` is the entry for runtimes that are not Node: what it loads at
 * import, followed through every workspace package it reaches, holds no Node-only module. Type-only
 * imports are left out (the compiler erases them); any other import, even of types only, stays.
 */
const packages = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The `node:` modules Node, Deno and Bun all provide (and Cloudflare Workers with `nodejs_compat`),
 * and third-party packages of plain JavaScript (`cookie`, the kernel's cookie parser).
 */
const EVERY_RUNTIME = ['cookie', 'node:diagnostics_channel'];

interface LoadedModules {
  /** Workspace source files, relative to `packages/`. */
  readonly files: Set<string>;
  /** Every import that is not a workspace file: `node:` modules and third-party packages. */
  readonly external: Set<string>;
}

/** Every module that importing `entry` loads. */
function loadedBy(entry: string): LoadedModules {
  const loaded: LoadedModules = { files: new Set(), external: new Set() };
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const name = relative(packages, file);
    if (loaded.files.has(name)) continue;
    loaded.files.add(name);
    for (const specifier of runtimeImports(file)) {
      const target = resolveWorkspace(specifier, file);
      if (target === null) loaded.external.add(specifier);
      else pending.push(target);
    }
  }
  return loaded;
}

/** The specifiers a file's compiled JavaScript still imports. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier !== undefined)
      specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      specifiers.push(argument !== undefined && ts.isStringLiteral(argument) ? argument.text : '(computed dynamic import)');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/** The source file a relative or `@switchboard/*` specifier loads under the `@switchboard/source` condition; null for anything else. */
function resolveWorkspace(specifier: string, from: string): string | null {
  if (specifier.startsWith('.')) return resolve(dirname(from), specifier).replace(/\.js$/, '.ts');
  const match = /^@switchboard\/([^/]+)(\/.+)?$/.exec(specifier);
  if (match === null) return null;
  const root = join(packages, match[1]!);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string>> };
  const target = manifest.exports[`.${match[2] ?? ''}`]?.['@switchboard/source'];
  if (target === undefined) throw new Error(`${specifier} is not exported (imported by ${from})`);
  return join(root, target);
}

describe('the fetch entry (@switchboard/node-adapter/fetch)', () => {
  const loaded = loadedBy(join(packages, 'node-adapter/src/fetch.ts'));

  it('loads no Node-only module, only what every runtime provides', () => {
    expect([...loaded.external].sort()).toEqual(EVERY_RUNTIME);
  });

  it('reaches the fetch handler and the kernel, and nothing of the node:http adapter', () => {
    expect(loaded.files).toContain('node-adapter/src/fetch/fetch-handler.ts');
    expect(loaded.files).toContain('http-kernel/src/index.ts');
    // `response/unsent-body.ts` releases a body nobody sent, in any runtime; the rest of `response/` writes to node:http.
    const nodeOnly = [...loaded.files].filter((file) =>
      /node-adapter\/src\/(server|middleware|response\/(?!unsent-body))|node-request-factory/.test(file),
    );
    expect(nodeOnly).toEqual([]);
  });

  it('would see a Node-only import: the main entry loads node:http', () => {
    const main = loadedBy(join(packages, 'node-adapter/src/index.ts'));
    expect(main.external).toContain('node:http');
    expect(main.external).toContain('node:net');
  });
});
