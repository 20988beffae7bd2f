import { parseArgs } from 'node:util';
import type { Route } from '../route/route.js';
import { Router } from '../router.js';
import { parameterTypes } from './parameter-types.js';
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

/** What `debugRouterCommand` accepts, as printed by `--help` and with a wrong argument. */
export const DEBUG_ROUTER_USAGE = `Usage: debug:router [filter] [--json] [--source]

Lists the routes in the order they are matched: name, methods, schemes, host, path.
  filter     only routes whose name contains this text
  --json     one JSON object per route instead of the table
  --source   the JavaScript the matcher generated for every route
`;

/** A wrong command line: its message ends with the usage. */
export class DebugRouterUsageError extends Error {
  override readonly name = 'DebugRouterUsageError';
}

/** An app's routes, or how to get them (a command line asking only for `--help` never builds the app). */
export type RoutesSource = Router | Iterable<Route> | (() => Router | Iterable<Route> | Promise<Router | Iterable<Route>>);

/**
 * The `debug:router` command line over an app's routes: `argv` (an app's script passes
 * `process.argv.slice(2)`) parsed into `debugRouter` options, or the usage for `--help`. Rejects
 * with `DebugRouterUsageError` for an unknown option or a second filter, before asking for the
 * routes.
 */
export async function debugRouterCommand(
  routes: RoutesSource,
  argv: readonly string[],
  write: (text: string) => void = toStdout,
): Promise<string> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    throw new DebugRouterUsageError(`${(error as Error).message}\n\n${DEBUG_ROUTER_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new DebugRouterUsageError(`One filter at most, got: ${positionals.join(' ')}\n\n${DEBUG_ROUTER_USAGE}`);
  if (values.help === true) {
    write(DEBUG_ROUTER_USAGE);
    return DEBUG_ROUTER_USAGE;
  }
  return debugRouter(typeof routes === 'function' ? await routes() : routes, {
    write,
    json: values.json === true,
    source: values.source === true,
    ...(positionals[0] === undefined ? {} : { filter: positionals[0] }),
  });
}

function parseCommandLine(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { json: { type: 'boolean' }, source: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
}

/**
 * The `debug:router` command: lists an app's routes (name, methods, schemes, host, path, parameter types) in the
 * order they are matched, or prints the code the matcher generated for them. An app runs it from
 * a script of its own through `debugRouterCommand` (the example host: `pnpm debug:router`).
 */
export function debugRouter(routes: Router | Iterable<Route>, options: DebugRouterOptions = {}): string {
  const write = options.write ?? toStdout;
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
    parameters: parameterTypes(route),
  }));
  return `${JSON.stringify(rows, null, 2)}\n`;
}

/** A router's own matcher source (its trailing-slash mode included), or that of a default router over the routes. */
function matcherSource(routes: Router | Iterable<Route>): string {
  const router = routes instanceof Router ? routes : new Router(routes);
  return `${router.matcher.source ?? '// Code generation from strings is disallowed here: routes are matched by the reference loop.'}\n`;
}

function toStdout(text: string): void {
  process.stdout.write(text);
}
