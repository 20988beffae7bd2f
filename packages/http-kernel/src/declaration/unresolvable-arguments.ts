import type { ArgumentResolver } from '../controller/argument-resolver.js';
import { argumentMetadataOf, controllerName, type Controller } from '../controller/controller.js';
import type { ControllerResolver } from '../controller/controller-resolver.js';
import type { EventMap, EventSubscriber } from '../dispatcher/types.js';

/**
 * A controller argument nothing gives a value: no parameter or default of its route, no
 * attribute a registered listener sets, no resolver of the kernel's `ArgumentResolver`. Each
 * request to the route would fail, so the kernel refuses to serve it.
 */
export interface UnresolvableArgument {
  /** The route's name. */
  readonly route: string;
  readonly path: string;
  readonly host: string | null;
  /** The route's path and host parameters. */
  readonly parameters: readonly string[];
  /** The controller's name (`defineController`'s third argument, or the function's name). */
  readonly controller: string;
  readonly argument: string;
  /** The argument's option keys (`payload`): a resolver reads them, and none in the ArgumentResolver does. */
  readonly options: readonly string[];
}

/** The arguments of the registered subscribers' route controllers that nothing resolves. */
export function unresolvableArguments<M extends EventMap>(
  subscribers: readonly EventSubscriber<M>[],
  argumentResolver: ArgumentResolver,
  controllerResolver: ControllerResolver,
): UnresolvableArgument[] {
  const setByListeners: string[] = [];
  for (const subscriber of subscribers) setByListeners.push(...(subscriber.getOwnedDeclarations?.().requestAttributes ?? []));
  const found: UnresolvableArgument[] = [];
  for (const subscriber of subscribers) {
    for (const route of subscriber.getRouteControllers?.() ?? []) {
      // A name no controller is registered under fails at its request with its own error.
      const controller: Controller | undefined =
        typeof route.controller === 'function' ? route.controller : controllerResolver.named(route.controller);
      if (controller === undefined) continue;
      const attributes = new Set([...setByListeners, ...route.parameters, ...route.defaults]);
      for (const argument of argumentMetadataOf(controller)) {
        if (argumentResolver.canResolve(argument, attributes)) continue;
        found.push({
          route: route.route,
          path: route.path,
          host: route.host,
          parameters: route.parameters,
          controller: controllerName(controller),
          argument: argument.name,
          options: Object.keys(argument.options ?? {}),
        });
      }
    }
  }
  return found;
}

/** One line of the refusal: the route, its parameters, the argument, and how to give it a value. */
export function describeUnresolvable(unresolvable: UnresolvableArgument): string {
  const { route, path, host, parameters, controller, argument, options } = unresolvable;
  const remedy =
    options.length > 0
      ? `add the resolver of its ${options.map((option) => `"${option}"`).join(', ')} option to the kernel's ArgumentResolver`
      : 'name it after a parameter, give it a default value, or register the resolver or listener that provides it';
  const names = parameters.length === 0 ? 'none' : parameters.join(', ');
  return (
    `  - route "${route}" (path "${path}"${host === null ? '' : `, host "${host}"`}, parameters: ${names}): argument "${argument}" of controller "${controller}" ` +
    `is neither a route parameter nor resolvable: ${remedy}.`
  );
}
