import { defineController, type ArgumentDeclaration, type ControllerNeeds, type RouteArguments } from '@switchboard/http-kernel';
import type { TypedArgument } from './typed-argument.js';

/**
 * Controller parameter types from a declaration list: a typed declaration (a payload, for
 * instance) gives its type; a plain name gives `never`, so that parameter must be annotated
 * (`(request: Request, item) => …`: `item` is typed, `request` is whatever you write, and the
 * route is checked to give a value of that type).
 */
export type ArgumentTypes<D extends ReadonlyArray<string | ArgumentDeclaration>> = {
  -readonly [K in keyof D]: D[K] extends TypedArgument<infer T> ? T : never;
};

/**
 * `defineController` whose controller gets its parameter types from the declarations, so a
 * payload argument is typed by its schema without restating the type.
 *
 * @example
 * defineTypedController(['request', mapPayload('item', { from: 'json', schema })], (request: Request, item) =>
 *   new JsonResponse(item, 201))
 */
export function defineTypedController<
  const D extends ReadonlyArray<string | ArgumentDeclaration>,
  C extends (...args: ArgumentTypes<D>) => unknown,
>(args: D, controller: C, name?: string): C & RouteArguments<ControllerNeeds<D, Parameters<C>>> {
  return defineController(args, controller, name);
}
