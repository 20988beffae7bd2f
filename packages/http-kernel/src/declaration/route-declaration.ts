import type { Controller } from '../controller/controller.js';

/**
 * Something a route asks of the app: a route default that a listener must act on (`_is_granted`,
 * `_rate_limit`…), or an option on one of its controller's arguments that a listener must resolve
 * (`payload`). A declaration nobody acts on is never true: the kernel refuses to serve routes
 * with one (see `HttpKernel.checkDeclarations`).
 */
export interface RouteDeclaration {
  /** The route's name. */
  readonly route: string;
  /** The route default's name (`_is_granted`), or the argument option's key (`payload`). */
  readonly name: string;
  readonly kind: 'route default' | 'argument option';
  /** For an argument option: the argument it is on. */
  readonly argument?: string;
}

/**
 * What a subscriber acts on: the route defaults it reads and the argument options it resolves.
 * Declared in the subscriber itself (`getOwnedDeclarations`), so that registering the subscriber
 * is what makes the declarations true.
 */
export interface OwnedDeclarations {
  readonly routeDefaults?: readonly string[];
  readonly argumentOptions?: readonly string[];
  /**
   * The request attributes this subscriber sets on the requests it handles (`_security_user`),
   * which a controller argument may be named after.
   */
  readonly requestAttributes?: readonly string[];
}

/**
 * A route's controller and the values the route itself gives it by name, so that the kernel can
 * check before serving that each of the controller's arguments has a source.
 */
export interface RouteController {
  /** The route's name. */
  readonly route: string;
  /** The route's path pattern, for the refusal's message. */
  readonly path: string;
  /** The route's host pattern, if it has one. */
  readonly host: string | null;
  /** The path's and the host's parameters. */
  readonly parameters: readonly string[];
  /** The names of the route's defaults, which become request attributes too. */
  readonly defaults: readonly string[];
  /** A function, or a name the kernel's `ControllerResolver` knows. */
  readonly controller: Controller | string;
}
