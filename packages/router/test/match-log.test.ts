import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { Request } from '@switchboard/http-kernel';
import {
  DEBUG_ROUTER_USAGE,
  debugRouter,
  debugRouterCommand,
  DebugRouterUsageError,
  formatRouteTable,
  RouteCollection,
  Router,
} from '../src/index.js';

const routes = new RouteCollection()
  .add('home', '/')
  .add('item', '/items/:id', { methods: ['GET'], requirements: { id: '\\d+' }, params: { id: z.coerce.number().int() } })
  .add('item_write', '/items/:id', { methods: ['PUT', 'POST'] })
  .add('docs', '/docs/')
  .add('admin', '/items/:id', { host: 'admin.example.com' })
  .add('secure', '/items/:id', { schemes: 'https' })
  .add('any', '/items/:id');
const router = new Router(routes);

describe('matchLog', () => {
  it('says for every route why it did or did not match', () => {
    const log = router.matchLog(Request.fromUrl('http://localhost/items/abc', { method: 'DELETE' }));
    expect(log.map((entry) => [entry.name, entry.level, entry.reason])).toEqual([
      ['home', 'none', 'Path "/" does not match.'],
      ['item', 'almost', 'Requirement for "id" does not match (\\d+).'],
      ['item_write', 'almost', 'Method "DELETE" does not match any of the required methods (PUT, POST).'],
      ['docs', 'none', 'Path "/docs/" does not match.'],
      ['admin', 'almost', 'Host "localhost" does not match the requirement ("admin.example.com").'],
      ['secure', 'almost', 'Scheme "http" does not match any of the required schemes (https).'],
      ['any', 'match', 'Route matches!'],
    ]);
  });

  it('reports a trailing-slash difference and routes after the match as not tried', () => {
    const log = router.matchLog('/docs', { method: 'GET', host: 'localhost', scheme: 'http' });
    expect(log.find((entry) => entry.name === 'docs')).toMatchObject({ level: 'almost' });
    const matched = router.matchLog('/', { method: 'GET', host: 'localhost', scheme: 'http' });
    expect(matched[0]).toMatchObject({ name: 'home', level: 'match' });
    expect(matched.slice(1).every((entry) => entry.reason === 'Not tried: an earlier route matched.')).toBe(true);
  });

  it('judges the trailing slash as the matcher does: a trailing parameter may keep it, even empty', () => {
    const optional = new Router(new RouteCollection().add('en', '/en-en{/:b}', { requirements: { b: '.*' }, defaults: { b: 'bbb' } }));
    const context = { method: 'GET', host: 'localhost', scheme: 'http' };
    expect(optional.matchLog('/en-en/', context)[0]).toMatchObject({ level: 'match' });
    expect(optional.matchPath('/en-en/', context)).toMatchObject({ kind: 'match', params: { b: '' } });
  });

  it("judges a trailing-slash difference by the router's mode: matched when ignored, refused without redirect when strict", () => {
    const context = { method: 'GET', host: 'localhost', scheme: 'http' };
    const rows = new RouteCollection().add('a', '/a').add('b', '/b');
    const verdicts = (['redirect', 'strict', 'ignore'] as const).map((trailingSlash) => {
      const slashRouter = new Router(rows, { trailingSlash });
      const [a, b] = slashRouter.matchLog('/a/', context);
      return [trailingSlash, slashRouter.matchPath('/a/', context).kind, a?.level, a?.reason, b?.reason];
    });
    expect(verdicts).toEqual([
      [
        'redirect',
        'redirect',
        'almost',
        'The trailing slash differs (the route has none): a GET or HEAD request is redirected to the path with it toggled.',
        'Not tried: an earlier route ended the pass with a trailing-slash redirect.',
      ],
      ['strict', 'not-found', 'almost', 'The trailing slash differs (the route has none).', 'Path "/b" does not match.'],
      ['ignore', 'match', 'match', 'Route matches!', 'Not tried: an earlier route matched.'],
    ]);
  });

  it('explains a malformed path instead of throwing', () => {
    const log = router.matchLog('/%zz', { method: 'GET', host: 'localhost', scheme: 'http' });
    expect(log[0]?.reason).toBe('Malformed percent-encoding in the request path "/%zz".');
  });
});

describe('debug:router', () => {
  it('lists name, methods, schemes, host and path in matching order', () => {
    const table = formatRouteTable(router.all());
    const lines = table.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^Name\s+Method\s+Scheme\s+Host\s+Path\s+Parameters$/);
    expect(lines.slice(3, -1).map((line) => line.split(/\s{2,}/))).toEqual([
      ['home', 'ANY', 'ANY', 'ANY', '/'],
      ['item', 'GET', 'ANY', 'ANY', '/items/:id', 'id: integer'],
      ['item_write', 'PUT|POST', 'ANY', 'ANY', '/items/:id', 'id: string'],
      ['docs', 'ANY', 'ANY', 'ANY', '/docs/'],
      ['admin', 'ANY', 'ANY', 'admin.example.com', '/items/:id', 'id: string'],
      ['secure', 'ANY', 'https', 'ANY', '/items/:id', 'id: string'],
      ['any', 'ANY', 'ANY', 'ANY', '/items/:id', 'id: string'],
    ]);
  });

  it('filters by name and writes JSON when asked', () => {
    const written: string[] = [];
    debugRouter(router.all(), { filter: 'item', json: true, write: (text) => written.push(text) });
    const parsed = JSON.parse(written.join('')) as Array<{ name: string; methods: string[] }>;
    expect(parsed.map((route) => route.name)).toEqual(['item', 'item_write']);
    expect(parsed[1]?.methods).toEqual(['PUT', 'POST']);
  });

  it("prints the matcher's generated source, which is the code that matches", () => {
    const written: string[] = [];
    const output = debugRouter(router, { source: true, write: (text) => written.push(text) });
    expect(written.join('')).toBe(output);
    expect(output).toBe(`${router.matcher.source}\n`);
    expect(output).toContain('// #1 item: GET /items/:id');
    expect(output).toMatch(/^ {4}rule1: \{$/m);
    expect(output).toContain('return function staticAnswers(path) {');
  });
});

describe('debugRouterCommand', () => {
  const run = async (argv: string[]) => {
    const written: string[] = [];
    let built = 0;
    const output = await debugRouterCommand(
      () => {
        built++;
        return router;
      },
      argv,
      (text) => written.push(text),
    );
    expect(written.join('')).toBe(output);
    return { output, built };
  };

  it('reads a filter, --json and --source from the command line', async () => {
    expect((await run(['item'])).output).toBe(formatRouteTable(router.all().filter((route) => route.name.includes('item'))));
    expect(JSON.parse((await run(['--json', 'write'])).output)).toMatchObject([{ name: 'item_write', methods: ['PUT', 'POST'] }]);
    expect((await run(['--source'])).output).toBe(`${router.matcher.source}\n`);
  });

  it('prints the usage for --help and refuses a wrong command line, without asking for the routes', async () => {
    expect(await run(['--help'])).toEqual({ output: DEBUG_ROUTER_USAGE, built: 0 });
    await expect(run(['--nope'])).rejects.toThrow(DebugRouterUsageError);
    await expect(run(['a', 'b'])).rejects.toThrow('One filter at most, got: a b');
  });
});
