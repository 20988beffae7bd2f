/**
 * One adapter per router compared in `router.bench.ts`: register `{ method, path, id }` rows, then
 * `find(method, path)` gives the id of the route that answers and its parameters, or `null`.
 * `lookup` is the call timed in the benchmark: the router's own lookup, nothing added.
 */
import FindMyWay from 'find-my-way';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';
import KoaTreeRouter from 'koa-tree-router';
import { Memoirist } from 'memoirist';
import { match as compileMatch } from 'path-to-regexp';
import { addRoute, createRouter, findRoute } from 'rou3';
import { compileRouter } from 'rou3/compiler';
import { RouteCollection, Router } from '@switchboard/router';

export interface RouteRow {
  readonly method: string;
  readonly path: string;
}

export interface Found {
  id: number;
  params: Record<string, string>;
}

export interface Contender {
  readonly name: string;
  /** The raw lookup, as timed. */
  lookup(method: string, path: string): unknown;
  /** The answer, for the correctness check before timing. */
  find(method: string, path: string): Found | null;
}

/** The router package's exports used here (another build of it can be measured beside this one). */
export interface RouterPackage {
  readonly RouteCollection: typeof RouteCollection;
  readonly Router: typeof Router;
}

export function switchboard(
  rows: readonly RouteRow[],
  build: RouterPackage = { RouteCollection, Router },
  name = 'switchboard',
): Contender & { router: Router } {
  const routes = new build.RouteCollection();
  rows.forEach((row, id) => routes.add(`r${id}`, row.path, { methods: row.method, defaults: {} }));
  const router = new build.Router(routes);
  // The matcher reads method, host and scheme from a context; in a server that context is the
  // Request itself. Here one context object per method stands in for it, found without a hash
  // lookup so the adapter adds no cost the peers do not have.
  const make = (method: string) => ({ method, host: 'localhost', scheme: 'http' });
  const GET = make('GET');
  const POST = make('POST');
  const PUT = make('PUT');
  const DELETE = make('DELETE');
  const PATCH = make('PATCH');
  const others = new Map<string, ReturnType<typeof make>>();
  const contextOf = (method: string) =>
    method === 'GET'
      ? GET
      : method === 'POST'
        ? POST
        : method === 'PUT'
          ? PUT
          : method === 'DELETE'
            ? DELETE
            : method === 'PATCH'
              ? PATCH
              : (others.get(method) ?? others.set(method, make(method)).get(method)!);
  return {
    name,
    router,
    lookup: (method, path) => router.matchPath(path, contextOf(method)),
    find(method, path) {
      const result = router.matchPath(path, contextOf(method));
      if (result.kind !== 'match') return null;
      return { id: Number(result.route.name.slice(1)), params: result.params as Record<string, string> };
    },
  };
}

export function findMyWay(rows: readonly RouteRow[]): Contender {
  const router = FindMyWay();
  rows.forEach((row, id) => router.on(row.method as 'GET', row.path, () => id, { id }));
  return {
    name: 'find-my-way',
    lookup: (method, path) => router.find(method as 'GET', path),
    find(method, path) {
      const found = router.find(method as 'GET', path);
      if (found === null) return null;
      return { id: (found.store as { id: number }).id, params: { ...(found.params as Record<string, string>) } };
    },
  };
}

function hono(name: string, router: RegExpRouter<number> | TrieRouter<number>, rows: readonly RouteRow[]): Contender {
  rows.forEach((row, id) => router.add(row.method, row.path, id));
  return {
    name,
    lookup: (method, path) => router.match(method, path),
    find(method, path) {
      const result = router.match(method, path);
      const first = result[0][0];
      if (first === undefined) return null;
      const [id, paramMap] = first;
      const stash = result[1];
      const params: Record<string, string> = {};
      for (const [key, value] of Object.entries(paramMap)) params[key] = stash === undefined ? (value as string) : stash[value as number]!;
      return { id, params };
    },
  };
}

export const honoRegExp = (rows: readonly RouteRow[]) => hono('hono RegExpRouter', new RegExpRouter<number>(), rows);
export const honoTrie = (rows: readonly RouteRow[]) => hono('hono TrieRouter', new TrieRouter<number>(), rows);

export function koaTree(rows: readonly RouteRow[]): Contender {
  type KoaFound = { handle: Array<{ id: number }> | null; params: Array<{ key: string; value: string }> };
  // `find` is public in koa-tree-router's source but missing from its type declarations.
  const router = new KoaTreeRouter() as KoaTreeRouter & { find(method: string, path: string): KoaFound };
  rows.forEach((row, id) => {
    const handler = Object.assign(async () => {}, { id });
    router.on(row.method, row.path, handler);
  });
  return {
    name: 'koa-tree-router',
    lookup: (method, path) => router.find(method, path),
    find(method, path) {
      const found = router.find(method, path);
      if (found.handle === null || found.handle === undefined) return null;
      const params: Record<string, string> = {};
      for (const { key, value } of found.params ?? []) params[key] = value;
      return { id: found.handle[0]!.id, params };
    },
  };
}

export function memoirist(rows: readonly RouteRow[]): Contender {
  const router = new Memoirist<number>();
  rows.forEach((row, id) => router.add(row.method, row.path, id));
  return {
    name: 'memoirist',
    lookup: (method, path) => router.find(method, path),
    find(method, path) {
      const found = router.find(method, path);
      if (found === null) return null;
      return { id: found.store, params: { ...found.params } };
    },
  };
}

function rou3Router(rows: readonly RouteRow[]) {
  const router = createRouter<number>();
  rows.forEach((row, id) => addRoute(router, row.method, row.path, id));
  return router;
}

function rou3Contender(
  name: string,
  find: (method: string, path: string) => { data: number; params?: Record<string, string> } | undefined,
): Contender {
  return {
    name,
    lookup: find,
    find(method, path) {
      const found = find(method, path);
      if (found === undefined) return null;
      return { id: found.data, params: { ...found.params } };
    },
  };
}

export function rou3(rows: readonly RouteRow[]): Contender {
  const router = rou3Router(rows);
  return rou3Contender('rou3', (method, path) => findRoute(router, method, path));
}

/** rou3's matcher compiled to one JavaScript function (`rou3/compiler`). */
export function rou3Compiled(rows: readonly RouteRow[]): Contender {
  return rou3Contender('rou3 compiled', compileRouter(rou3Router(rows)));
}

/** What a hand-written router does: one path-to-regexp matcher per route, tried in order. */
export function pathToRegexpLoop(rows: readonly RouteRow[]): Contender {
  const matchers = rows.map((row, id) => ({ id, method: row.method, match: compileMatch(row.path) }));
  const lookup = (method: string, path: string) => {
    for (const entry of matchers) {
      if (entry.method !== method) continue;
      const result = entry.match(path);
      if (result !== false) return { id: entry.id, params: result.params as Record<string, string> };
    }
    return null;
  };
  return { name: 'path-to-regexp loop', lookup, find: (method, path) => lookup(method, path) };
}

export const PEERS = [findMyWay, honoRegExp, honoTrie, koaTree, memoirist, rou3, rou3Compiled, pathToRegexpLoop] as const;
