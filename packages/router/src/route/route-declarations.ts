import type { Controller, RouteDeclaration } from '@switchboard/http-kernel';
import { argumentMetadataOf } from '@switchboard/http-kernel/internal';
import type { Route } from './route.js';

/**
 * What `routes` declare for listeners to act on: each `_`-prefixed default that is not one of the
 * route's `optionalDefaults`, and each option on the arguments of a controller given as a function.
 */
export function* routeDeclarations(routes: Iterable<Route>): Iterable<RouteDeclaration> {
  for (const route of routes) {
    for (const name of Object.keys(route.defaults)) {
      if (name.startsWith('_') && !route.optionalDefaults.includes(name)) yield { route: route.name, name, kind: 'route default' };
    }
    const controller = route.defaults['_controller'];
    if (typeof controller !== 'function') continue;
    for (const argument of argumentMetadataOf(controller as Controller)) {
      for (const name of Object.keys(argument.options ?? {})) {
        yield { route: route.name, name, kind: 'argument option', argument: argument.name };
      }
    }
  }
}
