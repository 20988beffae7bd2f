import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RouteCollection, Router, type RouteOptions, type TrailingSlashMode } from '../src/index.js';
import { plain } from './support/match.js';
import { referenceMatch } from '../src/matcher/reference-loop.js';

/** Route segments: literals, default parameters, requirement-bound parameters, mixed and optional pieces. */
const segment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('a', 'b', 'users', 'me', '1', 'x.json') },
  { weight: 4, arbitrary: fc.constantFrom(':p', ':q') },
  { weight: 1, arbitrary: fc.constantFrom(':d<num>', ':n.:ext', 'f-:p', '{:opt}', '*rest', '', 'a\\:b') },
);

interface RouteSpec {
  segments: string[];
  slash: boolean;
  /** Opens with an optional group that holds the first slash (`{/:lang}/…`). */
  lead: boolean;
  /** Ends with an optional parameter whose requirement `.*` may capture nothing (`…{/:w}`). */
  tail: boolean;
  methods: string[];
  schemes: string[];
  host: string | null;
}

const routeSpec: fc.Arbitrary<RouteSpec> = fc.record({
  segments: fc.array(segment as fc.Arbitrary<string>, { minLength: 0, maxLength: 4 }),
  slash: fc.boolean(),
  lead: fc.boolean(),
  tail: fc.boolean(),
  methods: fc.subarray(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'OPTIONS']),
  schemes: fc.oneof(
    { weight: 6, arbitrary: fc.constant<string[]>([]) },
    { weight: 1, arbitrary: fc.constantFrom<string[]>(['https'], ['http']) },
  ),
  host: fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | null>(null) },
    { weight: 1, arbitrary: fc.constantFrom<string | null>(':sub.example.com', 'api.example.com') },
  ),
});

/** Builds a route from a spec, renaming repeated parameters so the definition stays valid. */
function toRoute(spec: RouteSpec): { path: string; options: RouteOptions } {
  const used = new Map<string, number>();
  const requirements: Record<string, string> = {};
  const rename = (name: string) => {
    const n = (used.get(name) ?? 0) + 1;
    used.set(name, n);
    return n === 1 ? name : `${name}${n}`;
  };
  const parts = spec.segments.map((s) =>
    s.replace(/([:*])(\w+)(<num>)?/g, (_, sigil: string, name: string, num?: string) => {
      const renamed = rename(name);
      if (num) requirements[renamed] = '\\d+';
      return `${sigil}${renamed}`;
    }),
  );
  let path = `${spec.lead ? '{/:lang}' : ''}/${parts.join('/')}`;
  if (spec.tail) {
    path = `${path.replace(/\/$/, '')}{/:w}`;
    requirements['w'] = '.*';
  }
  if (spec.slash && path !== '/') path += '/';
  return {
    path,
    options: { methods: spec.methods, schemes: spec.schemes, host: spec.host, requirements, defaults: { opt: 'dflt', w: 'dw' } },
  };
}

/** A router over the specs' routes, named `r0`, `r1`… in order. */
function routerOfSpecs(specs: RouteSpec[], mode: TrailingSlashMode): Router {
  const routes = new RouteCollection();
  specs.forEach((spec, i) => {
    const { path, options } = toRoute(spec);
    routes.add(`r${i}`, path, options);
  });
  return new Router(routes, { trailingSlash: mode });
}

const requestPath = fc
  .tuple(
    fc.array(fc.constantFrom('a', 'b', 'users', 'me', '1', '22', 'x.json', 'n.tar.gz', 'f-z', '', 'caf%C3%A9', 'a%2Fb', 'a:b', 'en'), {
      maxLength: 5,
    }),
    fc.constantFrom('', '/', '//', '%2F'),
  )
  .map(([segments, tail]) => `/${segments.join('/')}${tail}`);

const request = fc.record({
  path: requestPath,
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
  host: fc.constantFrom('localhost', 'api.example.com', 'v2.example.com'),
  scheme: fc.constantFrom('http', 'https'),
});

describe('compiled matcher agrees with the reference loop', () => {
  for (const mode of ['redirect', 'strict', 'ignore'] as TrailingSlashMode[]) {
    it(`on random tables and requests (${mode})`, () => {
      fc.assert(
        fc.property(
          fc.array(routeSpec, { minLength: 1, maxLength: 12 }),
          fc.array(request, { minLength: 1, maxLength: 20 }),
          (specs, requests) => {
            const router = routerOfSpecs(specs, mode);
            const all = router.all();
            for (const r of requests) {
              const expected = plain(referenceMatch(all, r.path, r, mode));
              const actual = plain(router.matchPath(r.path, r));
              expect(actual, `${r.method} ${r.scheme}://${r.host}${r.path} over ${all.map((x) => x.path).join(' ')}`).toEqual(expected);
            }
          },
        ),
        { numRuns: 1000 },
      );
    });
  }

  it('on the GitHub API table, for every route path, sample and a miss', async () => {
    const { readFile } = await import('node:fs/promises');
    const table = JSON.parse(await readFile(new URL('./fixtures/github-api-routes-medley.json', import.meta.url), 'utf8')) as Array<{
      method: string;
      path: string;
      sample: string;
    }>;
    const routes = new RouteCollection();
    table.forEach((row, i) => routes.add(`r${i}`, row.path, { methods: row.method }));
    const router = new Router(routes);
    const all = router.all();
    const paths = table.flatMap((row) => [row.sample, `${row.sample}/`, row.path, `${row.sample}/nope`]);
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PATCH']) {
        const context = { method, host: 'localhost', scheme: 'http' };
        const expected = plain(referenceMatch(all, path, context, 'redirect'));
        expect(plain(router.matchPath(path, context)), `${method} ${path}`).toEqual(expected);
      }
    }
  });
});

describe("the match log (the profiler's explainer) agrees with the matcher", () => {
  /** What the log says of a request: the route it matched, the methods routes were refused for, and whether a pass ended at a slash redirect. */
  function logVerdict(router: Router, path: string, context: { method: string; host: string; scheme: string }) {
    const byName = new Map(router.all().map((route) => [route.name, route]));
    const log = router.matchLog(path, context);
    const allow: string[] = [];
    for (const entry of log.filter((entry) => entry.reason.startsWith('Method "'))) {
      for (const method of byName.get(entry.name)!.methods) if (!allow.includes(method)) allow.push(method);
    }
    return {
      matched: log.find((entry) => entry.level === 'match')?.name ?? null,
      allow,
      slashRedirect: log.some((entry) => entry.reason.includes('is redirected to the path with it toggled')),
    };
  }

  for (const mode of ['redirect', 'strict', 'ignore'] as TrailingSlashMode[]) {
    it(`on random tables and requests (${mode})`, () => {
      fc.assert(
        fc.property(
          fc.array(routeSpec, { minLength: 1, maxLength: 12 }),
          fc.array(request, { minLength: 1, maxLength: 20 }),
          (specs, requests) => {
            const router = routerOfSpecs(specs, mode);
            for (const r of requests) {
              const result = router.matchPath(r.path, r);
              const verdict = logVerdict(router, r.path, r);
              const label = `${r.method} ${r.scheme}://${r.host}${r.path} over ${router
                .all()
                .map((x) => x.path)
                .join(' ')}`;
              expect(verdict.matched, label).toBe(result.kind === 'match' ? result.route.name : null);
              if (result.kind === 'method-not-allowed') expect(verdict.allow, label).toEqual(result.allowedMethods);
              if (verdict.slashRedirect) expect(['redirect', 'not-found'], label).toContain(result.kind);
              if (mode !== 'redirect') expect(verdict.slashRedirect, label).toBe(false);
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});
