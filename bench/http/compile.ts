/**
 * The HTTP benchmarks run each contender as plain JavaScript under plain `node`, as a deployed
 * server runs: a TypeScript loader in the server process (tsx's hooks run in a worker thread and
 * install source-map support) made the JIT of frameworks bimodal. Measured: Fastify's hello cost
 * 11.1–11.8 or 14.5–15.2 µs of CPU per request from run to run under tsx, 11.3–12.1 µs in every
 * run without it. Each entry is bundled with esbuild (dependencies left as imports, so the
 * Switchboard packages load from their built dist/ and the peers from node_modules).
 */
import { build } from 'esbuild';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));

/** Bundles `entry` (a path relative to bench/) into bench/.compiled/ and returns the file to run. */
export async function compileEntry(entry: string): Promise<string> {
  const outfile = `${here}.compiled/${basename(entry).replace(/\.ts$/, '.mjs')}`;
  await build({
    entryPoints: [`${here}${entry}`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    // Paths computed from `import.meta.url` (the dist/ freshness check) stay those of the source.
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(`${here}${entry}`).href) },
    logLevel: 'warning',
  });
  return outfile;
}
