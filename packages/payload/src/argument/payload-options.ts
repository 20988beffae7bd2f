import type { StandardSchemaV1 } from '@standard-schema/spec';

/** Where a payload is read from. */
export type PayloadSource = 'json' | 'query' | 'form' | 'multipart';

/**
 * How one controller argument is mapped: the source and the schema that validates (and may
 * transform) what was read. Any Standard Schema v1 validator works (zod, valibot, arktype…).
 */
export interface PayloadOptions<S extends StandardSchemaV1 = StandardSchemaV1> {
  from: PayloadSource;
  schema: S;
  /** Overrides the resolver's body size limit for this argument, in bytes. */
  maxBodyBytes?: number;
  /** Overrides the resolver's limit on query string, form or multipart fields for this argument. */
  maxFields?: number;
  /** Multipart only: overrides the largest file part, in bytes. */
  maxFileBytes?: number;
  /** Multipart only: overrides the number of file parts. */
  maxFiles?: number;
  /** Multipart only: overrides the largest field value, in bytes. */
  maxFieldBytes?: number;
}

/** Where single values are read from, each by its own schema: request headers, or cookies of the `Cookie` header. */
export type ValueSource = 'headers' | 'cookies';

/** A Standard Schema per header (by name, any case) or per cookie (by exact name). */
export type ValueSchemas = Readonly<Record<string, StandardSchemaV1>>;

/**
 * How one controller argument is mapped from headers or cookies: an object of the named values,
 * each validated (and perhaps transformed) by its schema. An absent value is validated as
 * `undefined`, so the schema decides whether it is optional.
 */
export interface ValueOptions<S extends ValueSchemas = ValueSchemas> {
  from: ValueSource;
  schema: S;
}

/** What `options.payload` of an argument holds: a payload read from the body or query string, or named values. */
export type PayloadMapping = PayloadOptions | ValueOptions;

/** The key of `ArgumentMetadata.options` the payload resolver reads. */
export const PAYLOAD_OPTION = 'payload';

const SOURCES: ReadonlySet<string> = new Set<PayloadSource>(['json', 'query', 'form', 'multipart']);
const VALUE_SOURCES: ReadonlySet<string> = new Set<ValueSource>(['headers', 'cookies']);
/** A header field name (RFC 9110 token); cookie names are tokens too. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether a mapping reads named values (headers, cookies) rather than a payload. */
export function isValueMapping(options: PayloadMapping): options is ValueOptions {
  return VALUE_SOURCES.has(options.from);
}
const COUNTS = ['maxBodyBytes', 'maxFields', 'maxFileBytes', 'maxFiles', 'maxFieldBytes'] as const;

/** Checks a declaration at the edge, so a misconfigured route fails with a clear message. */
export function assertPayloadOptions(value: unknown, argumentName: string): asserts value is PayloadMapping {
  const where = `Payload mapping of the "${argumentName}" argument`;
  if (typeof value !== 'object' || value === null) throw new TypeError(`${where} must be an object { from, schema }.`);
  const { from, schema } = value as Record<string, unknown>;
  if (typeof from === 'string' && VALUE_SOURCES.has(from)) return assertValueSchemas(schema, where);
  if (typeof from !== 'string' || !SOURCES.has(from)) {
    throw new TypeError(
      `${where}: "from" must be "json", "query", "form", "multipart", "headers" or "cookies", got ${JSON.stringify(from)}.`,
    );
  }
  if (!isStandardSchema(schema)) {
    throw new TypeError(`${where}: "schema" must implement Standard Schema v1 (a "~standard" property with validate()).`);
  }
  for (const key of COUNTS) {
    const count = (value as Record<string, unknown>)[key];
    if (count !== undefined && !(Number.isSafeInteger(count) && (count as number) >= 0)) {
      throw new TypeError(`${where}: "${key}" must be a non-negative integer.`);
    }
  }
}

function assertValueSchemas(schema: unknown, where: string): void {
  if (typeof schema !== 'object' || schema === null || isStandardSchema(schema)) {
    throw new TypeError(`${where}: "schema" must be an object of one Standard Schema per name ({ 'x-tenant': schema }).`);
  }
  for (const [name, each] of Object.entries(schema)) {
    if (!TOKEN.test(name)) throw new TypeError(`${where}: ${JSON.stringify(name)} is not a header or cookie name.`);
    if (!isStandardSchema(each)) throw new TypeError(`${where}: the schema of "${name}" must implement Standard Schema v1.`);
  }
}

function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}
