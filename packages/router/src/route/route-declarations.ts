import type { Controller, RouteController, RouteDeclaration } from '@switchboard/http-kernel';
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

/** The controllers of `routes`, with the parameters and defaults each route gives its controller. */
export function* routeControllers(routes: Iterable<Route>): Iterable<RouteController> {
  for (const route of routes) {
    const controller = route.defaults['_controller'];
    if (typeof controller !== 'function' && typeof controller !== 'string') continue;
    yield {
      route: route.name,
      path: route.path,
      host: route.host,
      parameters: route.compiled.variables,
      defaults: Object.keys(route.defaults),
      controller: controller as Controller | string,
    };
  }
}
