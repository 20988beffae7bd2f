import type { Route } from '../route/route.js';
import { formatRouteTable } from './route-table.js';

export interface DebugRouterOptions {
  /** Where the table goes; defaults to stdout. */
  write?: (text: string) => void;
  /** Only routes whose name contains this text. */
  filter?: string;
  /** JSON (one object per route) instead of a table. */
  json?: boolean;
}

/**
 * The `debug:router` command: lists an app's routes (name, methods, schemes, host, path) in the
 * order they are matched. An app exposes it from a script of its own, e.g.
 * `debugRouter(buildRoutes(), { filter: process.argv[2] })`.
 */
export function debugRouter(routes: Iterable<Route>, options: DebugRouterOptions = {}): string {
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const selected = [...routes].filter((route) => options.filter === undefined || route.name.includes(options.filter));
  const output = options.json
    ? `${JSON.stringify(
        selected.map((route) => ({
          name: route.name,
          path: route.path,
          methods: route.methods,
          schemes: route.schemes,
          host: route.host,
          requirements: route.requirements,
        })),
        null,
        2,
      )}\n`
    : formatRouteTable(selected);
  write(output);
  return output;
}
