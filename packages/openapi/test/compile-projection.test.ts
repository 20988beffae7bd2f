import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../src/spec/openapi-types.js';
import { compileProjection } from '../src/listener/compile-projection.js';
import { projectOntoSchema } from '../src/listener/project-onto-schema.js';

const Tag: JsonSchema = { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] };

/** Schemas of every kind the projection follows, each with values that keep and lose members. */
const cases: Array<[string, JsonSchema, unknown[]]> = [
  [
    'nested objects and lists',
    { type: 'object', properties: { id: { type: 'integer' }, tags: { type: 'array', items: Tag } } },
    [{ id: 1, secret: 's', tags: [{ label: 'a', internal: 2 }, { label: 'b' }] }, { id: 2 }, [1, 2], 'text', null],
  ],
  ['a list of objects', { type: 'array', items: Tag }, [[{ label: 'a', x: 1 }], [], [{ label: 'b' }, 3, null]]],
  [
    'prefixItems',
    { type: 'array', prefixItems: [Tag, { type: 'integer' }], items: { type: 'object', properties: { n: {} } } },
    [[{ label: 'a', x: 1 }, 7, { n: 1, m: 2 }, { n: 2 }]],
  ],
  [
    'patternProperties and additionalProperties',
    {
      type: 'object',
      properties: { id: {} },
      patternProperties: { '^x-': { type: 'object', properties: { keep: {} } } },
      additionalProperties: false,
    },
    [{ id: 1, 'x-a': { keep: 1, drop: 2 }, other: 3 }],
  ],
  ['additionalProperties: true', { type: 'object', properties: { id: {} }, additionalProperties: true }, [{ id: 1, other: { a: 1 } }]],
  [
    'additionalProperties as a schema',
    { type: 'object', properties: { id: {} }, additionalProperties: Tag },
    [{ id: 1, one: { label: 'a', x: 1 }, two: { label: 'b' } }],
  ],
  [
    'allOf',
    {
      allOf: [
        { type: 'object', properties: { a: {} } },
        { type: 'object', properties: { b: Tag } },
      ],
    },
    [{ a: 1, b: { label: 'l', x: 1 }, c: 3 }],
  ],
  [
    'anyOf by type and required members',
    { anyOf: [{ type: 'string' }, { type: 'object', properties: { kind: { const: 'a' }, a: {} }, required: ['kind'] }, Tag] },
    ['s', { kind: 'a', a: 1, b: 2 }, { label: 'x', y: 1 }, 42],
  ],
  [
    'a schema that refers to itself',
    {
      $ref: '#/$defs/Node',
      $defs: { Node: { type: 'object', properties: { name: {}, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    },
    [{ name: 'root', x: 1, children: [{ name: 'leaf', y: 2, children: [] }] }],
  ],
  ['no object members at all', { type: 'array', items: { type: 'string' } }, [['a', 'b'], { any: 1 }]],
  ['an undeclared member named __proto__', { type: 'object', properties: { id: {} } }, [JSON.parse('{"__proto__":{"a":1},"id":1,"x":2}')]],
];

describe('compileProjection', () => {
  it.each(cases)('keeps and drops what projectOntoSchema does: %s', (_name, schema, values) => {
    const project = compileProjection(schema);
    for (const value of values) {
      const compiled = project(value);
      const reference = projectOntoSchema(value, schema).value;
      expect(JSON.stringify(compiled)).toBe(JSON.stringify(reference));
      expect(compiled).toEqual(reference);
    }
  });

  it('keeps a member named __proto__ as data, never as the prototype', () => {
    const project = compileProjection({
      type: 'object',
      properties: { id: { type: 'object', properties: {} } },
      additionalProperties: true,
    });
    const projected = project(JSON.parse('{"__proto__":{"polluted":true},"id":{"x":1}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(projected)).toBe(Object.prototype);
    expect(JSON.stringify(projected)).toBe('{"__proto__":{"polluted":true},"id":{}}');
  });

  it('hands back values with nothing to drop as they are, without walking them', () => {
    const list = [{ a: 1 }];
    expect(compileProjection({ type: 'array', items: { type: 'object' } })(list)).toBe(list);
  });
});
