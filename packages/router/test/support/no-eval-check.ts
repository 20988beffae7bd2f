// Run by code-generation-fallback.test.ts under `--disallow-code-generation-from-strings`.
import { RouteCollection, Router } from '../../src/index.js';

let blocked = false;
try {
  new Function('return 1');
} catch (error) {
  blocked = error instanceof EvalError;
}
const router = new Router(
  new RouteCollection()
    .add('item', '/items/:id', { methods: 'GET', defaults: { format: 'json' } })
    .add('file', '/files/*path')
    .add('dir', '/dir/'),
);
const context = { method: 'GET', host: 'localhost', scheme: 'http' };
const results = ['/items/7', '/files/a/b', '/dir', '/nope'].map((path) => {
  const result = router.matchPath(path, context);
  return result.kind === 'match' || result.kind === 'redirect' ? { ...result, route: result.route.name } : result;
});
process.stdout.write(JSON.stringify({ blocked, results }));
