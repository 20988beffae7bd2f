#!/usr/bin/env node
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { formatOpenApiDocument, loadOpenApiDocument } from './load-document.js';

const USAGE = `Usage: switchboard-openapi <module> [--export <name>] [--output <file>]

Writes the OpenAPI 3.1 document of an app as JSON, on stdout unless --output names a file.
<module> exports (default export, or --export <name>) an OpenAPI document, { routes, info, … }
for createOpenApiDocument, or a function returning either. A TypeScript module needs a loader:
NODE_OPTIONS='--import tsx' switchboard-openapi src/openapi.ts`;

/** The `switchboard-openapi` command. */
async function main(argv: readonly string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 64;
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return 64;
  }
  try {
    const text = formatOpenApiDocument(await loadOpenApiDocument(positionals[0]!, values.export));
    if (values.output === undefined) await new Promise<void>((done) => process.stdout.write(text, () => done()));
    else await writeFile(values.output, text);
    return 0;
  } catch (error) {
    process.stderr.write(`switchboard-openapi: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { export: { type: 'string' }, output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
  });
}

// Exits once written: the app module may leave handles open (a database, a worker).
process.exit(await main(process.argv.slice(2)));
