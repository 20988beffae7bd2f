import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';

/**
 * The relative imports between the TypeScript files of a source folder (type-only imports and
 * re-exports included: a cycle of types is still a cycle a reader has to untangle), and the
 * cycles among them. Used by `test/import-cycles.test.ts`; run it alone to list the cycles of
 * every package: `node --import tsx test/support/import-graph.ts`.
 */
export type ImportGraph = Map<string, Set<string>>;

const SPECIFIER = /^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Every `.ts` file under `root` (paths relative to it), with the files it imports. */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of tsFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const target = relative(root, resolve(root, dirname(file), match[1]!)).replace(/\.js$/, '.ts');
      targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The same graph between folders (a file at the root is in the folder `.`), edges within one folder
 * left out, and so are the `entries`: a package's entry points (`index.ts`, `storage.ts`…) sit above
 * every folder, re-exporting from them, and no source file imports them.
 */
export function folderGraph(graph: ImportGraph, entries: ReadonlySet<string> = new Set()): ImportGraph {
  const folders: ImportGraph = new Map();
  for (const [file, targets] of graph) {
    if (entries.has(file)) continue;
    const from = dirname(file);
    const into = folders.get(from) ?? new Set<string>();
    folders.set(from, into);
    for (const target of targets) if (dirname(target) !== from && !entries.has(target)) into.add(dirname(target));
  }
  return folders;
}

/** The source files of a package's entry points (its `exports`, `@switchboard/source` condition), relative to `src`. */
export function entryFiles(packageDir: string): Set<string> {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    exports?: Record<string, { '@switchboard/source'?: string }>;
  };
  const entries = new Set<string>();
  for (const target of Object.values(manifest.exports ?? {})) {
    const source = target['@switchboard/source'];
    if (source !== undefined) entries.add(relative('src', normalize(source)));
  }
  return entries;
}

/** The cycles of a graph: each strongly connected set of more than one node, sorted (Tarjan's algorithm). */
export function cycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function tsFiles(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(root, path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const packages = new URL('../../packages/', import.meta.url).pathname;
  for (const name of readdirSync(packages).sort()) {
    const graph = importGraph(join(packages, name, 'src'));
    for (const cycle of cycles(graph)) console.log(`${name} files: ${cycle.join(' ↔ ')}`);
    for (const cycle of cycles(folderGraph(graph, entryFiles(join(packages, name))))) console.log(`${name} folders: ${cycle.join(' ↔ ')}`);
  }
}
