import type { Route } from '../route/route.js';
import { Router } from '../router.js';
import { formatRouteTable } from './route-table.js';

export interface DebugRouterOptions {
  /** Where the table goes; defaults to stdout. */
  write?: (text: string) => void;
  /** Only routes whose name contains this text. */
  filter?: string;
  /** JSON (one object per route) instead of a table. */
  json?: boolean;
  /** The matcher's generated JavaScript instead of the table (the whole table's; `filter` does not apply). */
  source?: boolean;
}

/**
 * The `debug:router` command: lists an app's routes (name, methods, schemes, host, path) in the
 * order they are matched, or prints the code the matcher generated for them. An app exposes it
 * from a script of its own, e.g. `debugRouter(router, { filter: process.argv[2] })`.
 */
export function debugRouter(routes: Router | Iterable<Route>, options: DebugRouterOptions = {}): string {
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const output = options.source ? matcherSource(routes) : listing(routes instanceof Router ? routes.all() : routes, options);
  write(output);
  return output;
}

function listing(routes: Iterable<Route>, options: DebugRouterOptions): string {
  const selected = [...routes].filter((route) => options.filter === undefined || route.name.includes(options.filter));
  if (!options.json) return formatRouteTable(selected);
  const rows = selected.map((route) => ({
    name: route.name,
    path: route.path,
    methods: route.methods,
    schemes: route.schemes,
    host: route.host,
    requirements: route.requirements,
  }));
  return `${JSON.stringify(rows, null, 2)}\n`;
}

/** A router's own matcher source (its trailing-slash mode included), or that of a default router over the routes. */
function matcherSource(routes: Router | Iterable<Route>): string {
  const router = routes instanceof Router ? routes : new Router(routes);
  return `${router.matcher.source ?? '// Code generation from strings is disallowed here: routes are matched by the reference loop.'}\n`;
}
