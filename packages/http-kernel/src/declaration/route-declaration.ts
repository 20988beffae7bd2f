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
}
