import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '../spec/openapi-types.js';

/** The route default that holds a route's declared responses (so the request attribute of the same name). */
export const RESPONSES_DEFAULT = '_responses';

/** A response header a declaration documents. */
export interface DeclaredHeader {
  description?: string;
  required?: boolean;
  /** JSON Schema of the value; default `{ "type": "string" }`. */
  schema?: JsonSchema;
}

/** One declared response, in full. */
export interface ResponseDeclaration {
  /** The body's schema (any Standard Schema library); none: the response has no body. */
  schema?: StandardSchemaV1;
  /** Default: the status's reason phrase. */
  description?: string;
  /** Default `application/json`. */
  contentType?: string;
  headers?: Readonly<Record<string, DeclaredHeader>>;
}

/**
 * A route's responses by status (`200`, `201`, a class such as `'4XX'`, or `'default'`): a body
 * schema, a full declaration, or `null` for an answer without a body (a 204).
 */
export type ResponseSchemas = { readonly [status: string | number]: StandardSchemaV1 | ResponseDeclaration | null };

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** The route's declared responses (a route default): documented, and applied by the ResponseSchemaListener. */
    _responses?: ResponseSchemas;
  }
}

const STATUS_KEY = /^(?:[1-5][0-9][0-9]|[1-5]XX|default)$/;
const DECLARATION_KEYS = new Set(['schema', 'description', 'contentType', 'headers']);

/**
 * Declares a route's responses, checked at once (where the routes are defined), for its
 * `_responses` default.
 *
 * @example routes.add('items_show', '/items/:id', { controller, defaults: { _responses: defineResponses({ 200: Item }) } })
 */
export function defineResponses<const R extends ResponseSchemas>(responses: R): R {
  assertResponseSchemas(responses);
  return responses;
}

/** Checks a `_responses` value, naming the first mistake. */
export function assertResponseSchemas(value: unknown, route?: string): asserts value is ResponseSchemas {
  const where = route === undefined ? 'The _responses route option' : `The _responses option of route "${route}"`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError(`${where} must be an object of statuses.`);
  for (const [status, declared] of Object.entries(value)) {
    if (!STATUS_KEY.test(status)) throw new TypeError(`${where}: "${status}" is not a status (200, "2XX" or "default").`);
    if (declared === null || isStandardSchema(declared)) continue;
    if (typeof declared !== 'object') throw new TypeError(`${where}: ${status} must be a schema, a declaration object or null.`);
    for (const key of Object.keys(declared)) {
      if (!DECLARATION_KEYS.has(key)) throw new TypeError(`${where}: ${status} has the unknown key "${key}".`);
    }
    const { schema } = declared as ResponseDeclaration;
    if (schema !== undefined && !isStandardSchema(schema)) {
      throw new TypeError(`${where}: the schema of ${status} must implement Standard Schema v1.`);
    }
  }
}

/** A declaration in its full form. */
export function responseDeclarationOf(declared: StandardSchemaV1 | ResponseDeclaration | null): ResponseDeclaration {
  if (declared === null) return {};
  return isStandardSchema(declared) ? { schema: declared } : declared;
}

/** The declaration that applies to `status`: its own, else its class (`2XX`), else `default`. */
export function declarationFor(responses: ResponseSchemas, status: number): ResponseDeclaration | undefined {
  for (const key of [String(status), `${Math.floor(status / 100)}XX`, 'default']) {
    const declared = responses[key];
    if (declared !== undefined) return responseDeclarationOf(declared);
  }
  return undefined;
}

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return typeof props === 'object' && props !== null && typeof (props as { validate?: unknown }).validate === 'function';
}
