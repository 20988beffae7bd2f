import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ParameterSchemas } from './route-signature.js';

/** Checks a route's parameter schemas when it is defined: each names a parameter of the route and is a Standard Schema. */
export function assertParameterSchemas(schemas: ParameterSchemas, variables: readonly string[]): void {
  for (const [name, schema] of Object.entries(schemas)) {
    if (!variables.includes(name)) throw new Error(`the schema for "${name}" names no parameter of the route.`);
    if (!isStandardSchema(schema)) throw new Error(`the schema for "${name}" must implement Standard Schema v1.`);
  }
}

function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return typeof props === 'object' && props !== null && typeof (props as { validate?: unknown }).validate === 'function';
}
