import { defineController, type Request, Response } from '@switchboard/http-kernel';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RouteCollection, RouteDefinitionError, Router } from '../src/index.js';
import type { PathParameters } from '../src/route/path-parameters.js';

/** `true` only when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function sameType<A, B>(same: Same<A, B>): boolean {
  return same;
}

const show = defineController(['id', 'request'], (id: number, request: Request) => new Response(`${request.method} ${id}`));
const routes = new RouteCollection()
  .add('show', '/items/:id', { params: { id: z.coerce.number().int().positive() }, controller: show })
  .add('list', '/items{/page/:page}', { defaults: { page: '1' } })
  .add('files', '/files/*path');
const router = new Router(routes);

describe('typed routes', () => {
  it('reads parameter names from the pattern: required, optional, wildcard, quoted, escaped', () => {
    type Names = PathParameters<'/a\\:b/:id{/:page{/:"sub page"}}/*rest/:name.:ext'>;
    expect(sameType<Names['required'], 'id' | 'rest' | 'name' | 'ext'>(true)).toBe(true);
    expect(sameType<Names['optional'], 'page' | 'sub page'>(true)).toBe(true);
    expect(sameType<Names['wildcard'], 'rest'>(true)).toBe(true);
    expect(sameType<PathParameters<'/static/path'>['required'], never>(true)).toBe(true);
    // Only `:name` parameters: read a segment at a time, with the same names.
    expect(sameType<PathParameters<'/a/:id/b/:c'>['required'], 'id' | 'c'>(true)).toBe(true);
    expect(sameType<PathParameters<'/a/:id.:ext/:b-c/:d'>['required'], 'id' | 'ext' | 'b' | 'd'>(true)).toBe(true);
    expect(sameType<PathParameters<'/a/:id.:ext/:b-c/:d'>['optional'], never>(true)).toBe(true);
  });

  it('types generate by the collection: names, required parameters, schema output types', () => {
    expect(router.generate('show', { id: 3 })).toBe('/items/3');
    expect(router.generate('list')).toBe('/items');
    expect(router.generate('list', { page: 2, sort: 'name' })).toBe('/items/page/2?sort=name');
    expect(router.generate('files', { path: ['a', 'b c'] })).toBe('/files/a/b%20c');
    // @ts-expect-error unknown route name
    expect(() => router.generate('shw', { id: 3 })).toThrow('Unable to generate a URL for the named route "shw"');
    // @ts-expect-error missing required parameter
    expect(() => router.generate('show', {})).toThrow('mandatory parameters are missing ("id")');
    // @ts-expect-error the schema's output is a number
    router.generate('show', { id: true });
  });

  it('adds the mount prefix to names and its parameters to every route', () => {
    const mounted = new RouteCollection().mount('/t/:tenant', routes, { namePrefix: 'api_' });
    const generator = new Router(mounted);
    expect(generator.generate('api_show', { id: 1, tenant: 'acme' })).toBe('/t/acme/items/1');
    // @ts-expect-error the prefix's parameter is required
    expect(() => generator.generate('api_show', { id: 1 })).toThrow('("tenant")');
  });

  it('checks a typed controller against the route where the route is written', () => {
    const withPage = defineController(['page'], (page: string) => new Response(page));
    const maybePage = defineController(['page'], (page?: string) => new Response(page ?? '-'));
    const collection = new RouteCollection()
      .add('defaulted', '/a{/:page}', { defaults: { page: '1' }, controller: withPage })
      .add('optional', '/b{/:page}', { controller: maybePage })
      // @ts-expect-error `page` may be absent: the controller must accept `undefined`
      .add('absent', '/c{/:page}', { controller: withPage })
      // @ts-expect-error no `page` here at all
      .add('unknown', '/d', { controller: withPage })
      // @ts-expect-error `id` is a string without a schema
      .add('untyped', '/e/:id', { controller: show });
    expect(collection.size).toBe(5);
  });

  it('leaves a collection built without chaining untyped: any name, any values', () => {
    const loose = new RouteCollection();
    loose.add('a', '/a/:b');
    expect(new Router(loose).generate('a', { b: 'x', c: 1 })).toBe('/a/x?c=1');
  });

  it('refuses a schema for a parameter the route does not have', () => {
    expect(() => new RouteCollection().add('bad', '/x/:id', { params: { idd: z.string() } as never })).toThrow(RouteDefinitionError);
    expect(() => new RouteCollection().add('bad', '/x/:id', { params: { idd: z.string() } as never })).toThrow(
      'Route "bad": the schema for "idd" names no parameter of the route. (path "/x/:id")',
    );
  });
});
