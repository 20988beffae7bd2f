import type { Route } from '../route/route.js';
import { parameterTypes } from './parameter-types.js';

const HEADERS = ['Name', 'Method', 'Scheme', 'Host', 'Path', 'Parameters'] as const;

/** One row per route, as `debug:router` shows them: `ANY` where a route does not restrict; each parameter with its type. */
export function routeRows(routes: Iterable<Route>): string[][] {
  return [...routes].map((route) => [
    route.name,
    route.methods.length === 0 ? 'ANY' : route.methods.join('|'),
    route.schemes.length === 0 ? 'ANY' : route.schemes.join('|'),
    route.host ?? 'ANY',
    route.path,
    parameterTypes(route),
  ]);
}

/** The routes of an app as a plain-text table, in matching order. */
export function formatRouteTable(routes: Iterable<Route>): string {
  const rows = [HEADERS.slice() as string[], ...routeRows(routes)];
  const widths = HEADERS.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return `${[rule, line(rows[0]!), rule, ...rows.slice(1).map(line), rule].join('\n')}\n`;
}
