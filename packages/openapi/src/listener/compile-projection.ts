import type { JsonSchema } from '../spec/openapi-types.js';
import { fits, isPlainObject, MAX_DEPTH, objectShape, resolve } from './project-onto-schema.js';

/** A compiled projection: `value` reduced to what its schema declares (`depth`: how deep it sits). */
type Projector = (value: unknown, depth: number) => unknown;

const IDENTITY: Projector = (value) => value;

/**
 * The projection of `projectOntoSchema`, compiled once per schema: each object schema becomes a
 * table of its members' projectors (patterns compiled once), each part of the schema that declares
 * no object members anywhere below becomes the identity (its values are kept as they are, not
 * walked), so a request pays only for copying the objects that lose members. An object schema that
 * allows no other members (no `patternProperties`, no `additionalProperties`) reads its declared
 * members by name, in the schema's order, and never visits the others. It reports no dropped
 * members (debug mode uses `projectOntoSchema`, which does).
 */
export function compileProjection(schema: JsonSchema): (value: unknown) => unknown {
  const projector = new ProjectionCompiler(schema).compile(schema, 0);
  return projector === IDENTITY ? (value) => value : (value) => projector(value, 0);
}

class ProjectionCompiler {
  readonly #root: JsonSchema;
  /** Per resolved schema: its projector, or a stand-in while it compiles (a schema that refers to itself). */
  readonly #compiled = new Map<JsonSchema, Projector>();

  constructor(root: JsonSchema) {
    this.#root = root;
  }

  compile(schema: JsonSchema, nesting: number): Projector {
    if (nesting > MAX_DEPTH) return IDENTITY;
    const resolved = resolve(schema, this.#root);
    const known = this.#compiled.get(resolved);
    if (known !== undefined) return known;
    let compiled: Projector | undefined;
    this.#compiled.set(resolved, (value, depth) => compiled!(value, depth));
    compiled = this.#build(resolved, nesting);
    this.#compiled.set(resolved, compiled);
    return compiled;
  }

  #build(schema: JsonSchema, nesting: number): Projector {
    const branches = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
    if (Array.isArray(branches)) return this.#branches(branches, nesting);
    const arrays = this.#array(schema, nesting);
    const objects = this.#object(schema, nesting);
    if (arrays === IDENTITY && objects === IDENTITY) return IDENTITY;
    return (value, depth) => {
      if (depth > MAX_DEPTH) return value;
      if (Array.isArray(value)) return arrays(value, depth);
      return isPlainObject(value) ? objects(value, depth) : value;
    };
  }

  /** The first branch the value fits; none: the value as it is, for validation to report. */
  #branches(branches: readonly JsonSchema[], nesting: number): Projector {
    const compiled = branches.map((branch) => [resolve(branch, this.#root), this.compile(branch, nesting + 1)] as const);
    return (value, depth) => {
      if (depth > MAX_DEPTH) return value;
      for (const [branch, projector] of compiled) if (fits(value, branch)) return projector(value, depth + 1);
      return value;
    };
  }

  #array(schema: JsonSchema, nesting: number): Projector {
    const prefix = Array.isArray(schema['prefixItems'])
      ? (schema['prefixItems'] as JsonSchema[]).map((item) => this.compile(item, nesting + 1))
      : [];
    const items = isPlainObject(schema['items']) ? this.compile(schema['items'] as JsonSchema, nesting + 1) : IDENTITY;
    if (items === IDENTITY && prefix.every((item) => item === IDENTITY)) return IDENTITY;
    return (value, depth) => {
      const list = value as unknown[];
      const out = new Array<unknown>(list.length);
      for (let index = 0; index < list.length; index++) out[index] = (prefix[index] ?? items)(list[index], depth + 1);
      return out;
    };
  }

  #object(schema: JsonSchema, nesting: number): Projector {
    const shape = objectShape(schema, this.#root);
    if (shape === null) return IDENTITY;
    const properties = new Map<string, Projector>();
    for (const [key, member] of Object.entries(shape.properties)) properties.set(key, this.compile(member, nesting + 1));
    const patterns = shape.patterns.map(([pattern, member]) => [pattern, this.compile(member, nesting + 1)] as const);
    const additional = typeof shape.additional === 'boolean' ? shape.additional : this.compile(shape.additional, nesting + 1);
    if (patterns.length === 0 && additional === false && !properties.has('__proto__')) return declaredMembers(properties);
    return (value, depth) => {
      const object = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(object)) {
        let projector: Projector | boolean | undefined = properties.get(key);
        if (projector === undefined) {
          for (const [pattern, member] of patterns) {
            if (pattern.test(key)) {
              projector = member;
              break;
            }
          }
          projector ??= additional;
        }
        if (projector === false) continue;
        const member = projector === true || projector === IDENTITY ? object[key] : projector(object[key], depth + 1);
        // A member named `__proto__` is data, as in the parsed JSON it came from, never the prototype.
        if (key === '__proto__') Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
        else out[key] = member;
      }
      return out;
    };
  }
}

/**
 * An object that keeps its declared members only: they are looked up by name, in the schema's
 * order, whatever else the value holds, so undeclared members are never even visited.
 */
function declaredMembers(properties: ReadonlyMap<string, Projector>): Projector {
  const keys = [...properties.keys()];
  const projectors = [...properties.values()];
  // A name an object inherits (`toString`) must be checked as the value's own; others are own when defined.
  const inherited = keys.map((key) => key in Object.prototype);
  return (value, depth) => {
    const object = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      const member = object[key];
      if ((member === undefined || inherited[index]) && !Object.hasOwn(object, key)) continue;
      const projector = projectors[index]!;
      out[key] = projector === IDENTITY ? member : projector(member, depth + 1);
    }
    return out;
  };
}
