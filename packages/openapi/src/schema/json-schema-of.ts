import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '../spec/openapi-types.js';

/** Which side of a schema is described: what it accepts (`input`) or what it yields (`output`). */
export type SchemaDirection = 'input' | 'output';

/**
 * Converts a schema whose library does not implement Standard JSON Schema (`~standard.jsonSchema`),
 * Valibot for one: return its JSON Schema (2020-12), or `undefined` to leave it to the next converter.
 */
export type JsonSchemaConverter = (schema: StandardSchemaV1, direction: SchemaDirection) => JsonSchema | undefined;

/** A schema that could not become JSON Schema; the message names the route and what the schema describes. */
export class SchemaConversionError extends Error {
  override readonly name = 'SchemaConversionError';
}

/** Where a schema is used, for error messages: `route "items_create", the JSON body "item"`. */
export interface SchemaSite {
  readonly route: string;
  readonly describes: string;
}

const TARGET = 'draft-2020-12';

/**
 * The JSON Schema of a Standard Schema: from the library's own `~standard.jsonSchema` converter
 * (zod 4.2+, ArkType) or else from the first of `converters` that knows the schema.
 */
export function jsonSchemaOf(
  schema: StandardSchemaV1,
  direction: SchemaDirection,
  converters: readonly JsonSchemaConverter[],
  site: SchemaSite,
): JsonSchema {
  const props = schema['~standard'] as StandardSchemaV1.Props & { jsonSchema?: Partial<Record<SchemaDirection, unknown>> };
  const where = `Route "${site.route}": ${site.describes} (a ${props.vendor} schema)`;
  try {
    const standard = props.jsonSchema?.[direction];
    if (typeof standard === 'function') return asJsonSchema(standard.call(props.jsonSchema, { target: TARGET }), where);
    for (const convert of converters) {
      const converted = convert(schema, direction);
      if (converted !== undefined) return asJsonSchema(converted, where);
    }
  } catch (error) {
    if (error instanceof SchemaConversionError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new SchemaConversionError(`${where} cannot be converted to JSON Schema: ${reason}`, { cause: error });
  }
  throw new SchemaConversionError(
    `${where} has no JSON Schema conversion: ${props.vendor} does not implement Standard JSON Schema ("~standard.jsonSchema"); ` +
      'pass a converter for it in the "converters" option (Valibot: toJsonSchema from @valibot/to-json-schema).',
  );
}

function asJsonSchema(value: unknown, where: string): JsonSchema {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SchemaConversionError(
      `${where}: its converter returned ${value === null ? 'null' : typeof value}, not a JSON Schema object.`,
    );
  }
  return value as JsonSchema;
}
