import type { JsonSchema } from '../spec/openapi-types.js';

/** A value reduced to what its schema declares, and the JSON Pointers of the members it lost. */
export interface Projection {
  readonly value: unknown;
  readonly dropped: readonly string[];
}

/** Deeper than this, values are kept as they are: no declared JSON answer nests that far. */
export const MAX_DEPTH = 64;

/**
 * Keeps of `value` only what `schema` declares, as Fastify's serializer does: object members
 * absent from `properties` (and not allowed by `patternProperties` or an `additionalProperties`
 * schema or `true`) are dropped, at every depth, through `$ref`, `allOf`, and the first
 * `anyOf`/`oneOf` branch the value fits. Nothing else changes: a value of the wrong type stays as
 * it is, for validation to report.
 */
export function projectOntoSchema(value: unknown, schema: JsonSchema): Projection {
  const dropped: string[] = [];
  const projected = project(value, schema, schema, '', 0, dropped);
  return { value: projected, dropped };
}

function project(value: unknown, schema: JsonSchema, root: JsonSchema, pointer: string, depth: number, dropped: string[]): unknown {
  if (depth > MAX_DEPTH) return value;
  const resolved = resolve(schema, root);
  const branch = chosenBranch(value, resolved, root);
  if (branch !== null) return project(value, branch, root, pointer, depth + 1, dropped);
  if (Array.isArray(value)) return projectArray(value, resolved, root, pointer, depth, dropped);
  if (isPlainObject(value)) return projectObject(value, resolved, root, pointer, depth, dropped);
  return value;
}

function projectArray(
  value: unknown[],
  schema: JsonSchema,
  root: JsonSchema,
  pointer: string,
  depth: number,
  dropped: string[],
): unknown[] {
  const prefix = Array.isArray(schema['prefixItems']) ? (schema['prefixItems'] as JsonSchema[]) : [];
  const items = isPlainObject(schema['items']) ? (schema['items'] as JsonSchema) : undefined;
  return value.map((item, index) => {
    const itemSchema = prefix[index] ?? items;
    return itemSchema === undefined ? item : project(item, itemSchema, root, `${pointer}/${index}`, depth + 1, dropped);
  });
}

function projectObject(
  value: Record<string, unknown>,
  schema: JsonSchema,
  root: JsonSchema,
  pointer: string,
  depth: number,
  dropped: string[],
): Record<string, unknown> {
  const shape = objectShape(schema, root);
  if (shape === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const memberPointer = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const memberSchema = shape.properties[key] ?? shape.patterns.find(([pattern]) => pattern.test(key))?.[1] ?? shape.additional;
    if (memberSchema === false) {
      dropped.push(memberPointer);
      continue;
    }
    out[key] = memberSchema === true ? member : project(member, memberSchema, root, memberPointer, depth + 1, dropped);
  }
  return out;
}

export interface ObjectShape {
  properties: Record<string, JsonSchema>;
  patterns: Array<[RegExp, JsonSchema]>;
  /** Undeclared members: dropped (`false`), kept (`true`) or projected onto a schema. */
  additional: JsonSchema | boolean;
}

/** What an object schema (and the branches of its `allOf`) declares; `null` when it declares no members at all. */
export function objectShape(schema: JsonSchema, root: JsonSchema): ObjectShape | null {
  const shape: ObjectShape = { properties: {}, patterns: [], additional: false };
  let declares = false;
  const visit = (part: JsonSchema, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const resolved = resolve(part, root);
    if (isPlainObject(resolved['properties'])) {
      declares = true;
      for (const [key, member] of Object.entries(resolved['properties'] as Record<string, JsonSchema>)) shape.properties[key] ??= member;
    }
    if (isPlainObject(resolved['patternProperties'])) {
      declares = true;
      for (const [pattern, member] of Object.entries(resolved['patternProperties'] as Record<string, JsonSchema>)) {
        shape.patterns.push([new RegExp(pattern, 'u'), member]);
      }
    }
    const additional = resolved['additionalProperties'];
    if (additional === true || isPlainObject(additional)) {
      declares = true;
      if (shape.additional === false) shape.additional = additional as JsonSchema | true;
    }
    if (Array.isArray(resolved['allOf'])) for (const branch of resolved['allOf'] as JsonSchema[]) visit(branch, depth + 1);
  };
  visit(schema, 0);
  return declares ? shape : null;
}

/** The `anyOf`/`oneOf` branch `value` fits (its type, its required members), or `null` when there is no choice to make. */
function chosenBranch(value: unknown, schema: JsonSchema, root: JsonSchema): JsonSchema | null {
  const branches = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
  if (!Array.isArray(branches)) return null;
  for (const branch of branches) if (fits(value, resolve(branch, root))) return branch;
  // No branch fits: nothing is dropped, validation reports the mismatch.
  return {};
}

export function fits(value: unknown, schema: JsonSchema): boolean {
  const type = schema['type'];
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? (type as string[]) : null;
  if (types !== null && !types.includes(jsonType(value)) && !(types.includes('number') && jsonType(value) === 'integer')) return false;
  if ('const' in schema && schema['const'] !== value) return false;
  if (isPlainObject(value) && Array.isArray(schema['required'])) return (schema['required'] as string[]).every((key) => key in value);
  return true;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Follows local references (`#`, `#/$defs/…`, `#/definitions/…`) within the converted schema. */
export function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < MAX_DEPTH && typeof current['$ref'] === 'string'; hops++) {
    const ref = current['$ref'] as string;
    if (ref === '#') {
      current = root;
      continue;
    }
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const target =
      match === null
        ? undefined
        : (root[match[1]!] as Record<string, JsonSchema> | undefined)?.[match[2]!.replaceAll('~1', '/').replaceAll('~0', '~')];
    if (target === undefined) return {};
    current = target;
  }
  return current;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
