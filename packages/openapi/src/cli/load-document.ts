import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createOpenApiDocument, type OpenApiOptions, type RouteSource } from '../document/create-openapi-document.js';
import type { OpenApiDocument } from '../spec/openapi-types.js';

/** What a module given to the command exports: the routes with the document's options. */
export interface OpenApiSource extends OpenApiOptions {
  routes: RouteSource;
}

/** A document, a source, or a function (maybe async) returning either. */
export type OpenApiExport =
  | OpenApiDocument
  | OpenApiSource
  | (() => OpenApiDocument | OpenApiSource | Promise<OpenApiDocument | OpenApiSource>);

/**
 * Imports `modulePath` (relative to `cwd`) and builds the document from its export `exportName`
 * (default: the default export).
 */
export async function loadOpenApiDocument(modulePath: string, exportName = 'default', cwd = process.cwd()): Promise<OpenApiDocument> {
  const url = pathToFileURL(isAbsolute(modulePath) ? modulePath : resolve(cwd, modulePath)).href;
  const module = (await import(url)) as Record<string, unknown>;
  if (!(exportName in module)) {
    throw new Error(`${modulePath} has no export "${exportName}" (it exports: ${Object.keys(module).join(', ') || 'nothing'}).`);
  }
  let exported = module[exportName];
  if (typeof exported === 'function') exported = await (exported as () => unknown)();
  if (typeof exported !== 'object' || exported === null) {
    throw new Error(
      `The export "${exportName}" of ${modulePath} must be an OpenAPI document, { routes, info, … }, or a function returning one.`,
    );
  }
  if ('openapi' in exported) return exported as OpenApiDocument;
  if ('routes' in exported && 'info' in exported) {
    const { routes, ...options } = exported as OpenApiSource;
    return createOpenApiDocument(routes, options);
  }
  throw new Error(`The export "${exportName}" of ${modulePath} has neither "openapi" (a document) nor "routes" and "info" (a source).`);
}

/** The document as written to a file: two-space indents and a final newline, so diffs stay small. */
export function formatOpenApiDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
