import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The names an entry point exports: values by name, types (and interfaces, type aliases) as `type Name`. */
export type ExportLists = Record<string, Record<string, string[]>>;

interface Manifest {
  name: string;
  exports?: Record<string, { '@switchboard/source'?: string }>;
}

/**
 * Every package's export list, per entry point of its `exports` map (`.`, `./internal`…), read by
 * the TypeScript compiler from the sources, names sorted.
 */
export function exportLists(packagesDir: string): ExportLists {
  const entries: Array<{ pkg: string; entry: string; file: string }> = [];
  for (const dir of readdirSync(packagesDir).sort()) {
    const manifest = JSON.parse(readFileSync(join(packagesDir, dir, 'package.json'), 'utf8')) as Manifest;
    for (const [entry, conditions] of Object.entries(manifest.exports ?? {})) {
      const source = conditions['@switchboard/source'];
      if (source !== undefined) entries.push({ pkg: manifest.name, entry, file: join(packagesDir, dir, source) });
    }
  }
  const program = ts.createProgram(
    entries.map((e) => e.file),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      customConditions: ['@switchboard/source'],
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    },
  );
  const checker = program.getTypeChecker();
  const lists: ExportLists = {};
  for (const { pkg, entry, file } of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const names = checker.getExportsOfModule(module).map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return target.flags & ts.SymbolFlags.Value ? symbol.name : `type ${symbol.name}`;
    });
    (lists[pkg] ??= {})[entry] = names.sort((a, b) => compare(sortKey(a), sortKey(b)) || compare(a, b));
  }
  return lists;
}

/** Names sorted by themselves (`type ` aside) without regard to case; the same order on every machine. */
function sortKey(name: string): string {
  return name.replace(/^type /, '').toLowerCase();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
