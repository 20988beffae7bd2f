import type { JsonSchema } from '../spec/openapi-types.js';
import { byCodePoint, sortedRecord } from '../spec/stable-order.js';

const LOCAL_DEFINITIONS = /^#\/(?:\$defs|definitions)\/(.+)$/;
const COMPONENT_NAME = /[^A-Za-z0-9._-]/g;

/**
 * The document's `components.schemas`, filled from converted schemas. A converted schema is a
 * JSON Schema document of its own: its `#/$defs/…` references point into itself, but embedded in
 * an OpenAPI document `#` is the OpenAPI document. So its definitions move here and its
 * references are rewritten to `#/components/schemas/…`; a definition met twice with the same
 * content is kept once, a different one under the same name gets a numbered name.
 */
export class SchemaComponents {
  readonly #schemas = new Map<string, JsonSchema>();
  readonly #canonical = new Map<string, string>();

  /**
   * The schema as it can be embedded in the document. `rootName` names the component the root
   * becomes when the schema refers to itself (`$ref: "#"`, a recursive schema).
   */
  embed(schema: JsonSchema, rootName: string): JsonSchema {
    const { $schema: _dialect, $defs, definitions, ...body } = schema;
    const renamed = new Map<string, string>();
    const defs = { ...asRecord(definitions), ...asRecord($defs) };
    // Names first, so definitions that refer to each other are rewritten with the final names.
    for (const name of Object.keys(defs)) renamed.set(name, this.#reserve(name, defs[name] as JsonSchema));
    const selfReferring = containsRef(body, '#');
    const rootComponent = selfReferring ? this.#reserve(rootName, body) : null;
    const rewrite = (value: unknown): unknown => rewriteRefs(value, renamed, rootComponent);
    for (const [name, definition] of Object.entries(defs)) this.#store(renamed.get(name)!, rewrite(definition) as JsonSchema);
    const embedded = rewrite(body) as JsonSchema;
    if (rootComponent === null) return embedded;
    this.#store(rootComponent, embedded);
    return { $ref: componentRef(rootComponent) };
  }

  /** Registers `schema` under `name` (a fixed name such as `Problem`) and returns its reference. */
  named(name: string, schema: JsonSchema): JsonSchema {
    const component = this.#reserve(name, schema);
    this.#store(component, schema);
    return { $ref: componentRef(component) };
  }

  /** Every component, by name in code-point order. */
  toRecord(): Record<string, JsonSchema> {
    return sortedRecord(Object.fromEntries(this.#schemas));
  }

  /** The name this schema is stored under: its own when free or holding the same content, else a numbered one. */
  #reserve(wanted: string, schema: JsonSchema): string {
    const base = wanted.replace(COMPONENT_NAME, '_') || 'Schema';
    const canonical = canonicalJson(schema);
    for (let n = 1; n <= 1000; n++) {
      const name = n === 1 ? base : `${base}${n}`;
      const existing = this.#canonical.get(name);
      if (existing === undefined) {
        this.#canonical.set(name, canonical);
        return name;
      }
      if (existing === canonical) return name;
    }
    throw new Error(`More than 1000 different schemas are named "${base}".`);
  }

  #store(name: string, schema: JsonSchema): void {
    this.#schemas.set(name, schema);
  }
}

export function componentRef(name: string): string {
  return `#/components/schemas/${name}`;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function rewriteRefs(value: unknown, renamed: ReadonlyMap<string, string>, rootComponent: string | null): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, renamed, rootComponent));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string') out[key] = rewrittenRef(member, renamed, rootComponent);
    else out[key] = rewriteRefs(member, renamed, rootComponent);
  }
  return out;
}

function rewrittenRef(ref: string, renamed: ReadonlyMap<string, string>, rootComponent: string | null): string {
  if (ref === '#' && rootComponent !== null) return componentRef(rootComponent);
  const local = LOCAL_DEFINITIONS.exec(ref)?.[1];
  if (local === undefined) return ref;
  const name = renamed.get(decodeURIComponent(local).replaceAll('~1', '/').replaceAll('~0', '~'));
  return name === undefined ? ref : componentRef(name);
}

function containsRef(value: unknown, ref: string): boolean {
  if (Array.isArray(value)) return value.some((item) => containsRef(item, ref));
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, member]) => (key === '$ref' ? member === ref : containsRef(member, ref)));
}

/** JSON with object keys sorted at every level: equal content, equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    typeof member === 'object' && member !== null && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => byCodePoint(a, b)))
      : member,
  );
}
