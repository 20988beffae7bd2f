import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Relative specifiers of static imports, re-exports and dynamic `import()`s. */
const SPECIFIER = /(?:^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

/**
 * The imports by which a file of one package's or example's folder reaches into the `test/` folder
 * of another (or from the workspace's `test/` and `bench/` folders into any of them), as
 * `importer → imported` paths relative to `root`. What tests share lives in the test kit
 * (`test/kit/`), which every test may import.
 */
export function importsOfOtherTestFolders(root: string): string[] {
  const found: string[] = [];
  for (const file of scannedFiles(root)) {
    const owner = ownerOf(file);
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(SPECIFIER)) {
      const target = relative(root, resolve(root, dirname(file), match[1]!));
      const parts = target.split(sep);
      const intoTestFolder = (parts[0] === 'packages' || parts[0] === 'examples') && parts[2] === 'test';
      if (intoTestFolder && ownerOf(target) !== owner) found.push(`${file} → ${target}`);
    }
  }
  return found.sort();
}

/** `packages/<name>` or `examples/<name>` for a file in one, else its top folder (`test`, `bench`). */
function ownerOf(path: string): string {
  const parts = path.split(sep);
  return parts[0] === 'packages' || parts[0] === 'examples' ? parts.slice(0, 2).join('/') : parts[0]!;
}

function scannedFiles(root: string): string[] {
  const folders = ['packages', 'examples'].flatMap((group) =>
    existsSync(join(root, group)) ? readdirSync(join(root, group)).map((name) => join(group, name)) : [],
  );
  return [...folders, 'test', 'bench'].filter((folder) => existsSync(join(root, folder))).flatMap((folder) => sourcesUnder(root, folder));
}

/** Source files under `folder`, without descending into installed or built folders (which hold most files). */
function sourcesUnder(root: string, folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) files.push(...sourcesUnder(root, path));
    } else if (/\.(?:ts|mts|js|mjs)$/.test(entry.name)) files.push(path);
  }
  return files;
}

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.compiled']);
