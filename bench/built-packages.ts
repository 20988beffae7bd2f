/**
 * Benchmarks measure the packages as npm users get them: the built JavaScript in `dist/`, not the
 * TypeScript sources under a loader (tsx's output kept V8 from optimizing the kernel's event
 * constructors; see docs/benchmarks.md). Imported first by every benchmark: refuses to measure a
 * package whose `dist/` is missing or older than its sources.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packagesDir = fileURLToPath(new URL('../packages/', import.meta.url));

function newestFile(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestFile(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const stale = readdirSync(packagesDir).filter((name) => {
  const dist = join(packagesDir, name, 'dist');
  return !existsSync(dist) || newestFile(join(packagesDir, name, 'src')) > newestFile(dist);
});
if (stale.length > 0) {
  throw new Error(`Build before benchmarking (npx -y pnpm@10.34.8 build); not built or older than their sources: ${stale.join(', ')}.`);
}
