/**
 * Errors of the routing layer. The router listener wraps the matching ones in HTTP errors
 * (404, 405, 400) and attaches them as `cause`, so the error page and the profiler can show them.
 */
export class RoutingError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No route matches the path. Message: `No routes found for "<path>".` (the toggled path after a slash retry). */
export class ResourceNotFoundError extends RoutingError {
  constructor(readonly path: string) {
    super(resourceNotFoundMessage(path));
  }
}

/** The message of a `ResourceNotFoundError` for `path`. */
export function resourceNotFoundMessage(path: string): string {
  return `No routes found for "${path}".`;
}

/**
 * A route matches the path but not the method. Like Symfony, the message is empty; the
 * allowed methods (declaration order, upper-cased, no duplicates) are on `allowedMethods`.
 */
export class MethodNotAllowedError extends RoutingError {
  constructor(readonly allowedMethods: readonly string[]) {
    super('');
  }
}

/** The path has malformed percent-encoding or is not UTF-8 once decoded. */
export class MalformedPathError extends RoutingError {
  constructor(
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(`Malformed percent-encoding in the request path "${path}".`, options);
  }
}

/** A route definition is invalid; the message names the route. */
export class RouteDefinitionError extends RoutingError {
  constructor(
    readonly routeName: string,
    problem: string,
    options?: ErrorOptions,
  ) {
    super(`Route "${routeName}": ${problem}`, options);
  }
}

/** URL generation for a name no route has. */
export class RouteNotFoundError extends RoutingError {
  constructor(readonly routeName: string) {
    super(`Unable to generate a URL for the named route "${routeName}" as such route does not exist.`);
  }
}

/** URL generation without a value for a mandatory parameter. */
export class MissingMandatoryParametersError extends RoutingError {
  constructor(
    readonly routeName: string,
    readonly missing: readonly string[],
  ) {
    super(`Some mandatory parameters are missing ("${missing.join('", "')}") to generate a URL for route "${routeName}".`);
  }
}

/** URL generation with a value its requirement rejects. */
export class InvalidParameterError extends RoutingError {
  constructor(
    readonly routeName: string,
    readonly parameter: string,
    requirement: string,
    value: string,
  ) {
    super(
      `Parameter "${parameter}" for route "${routeName}" must match "${requirement}" ("${value}" given) to generate a corresponding URL.`,
    );
  }
}
