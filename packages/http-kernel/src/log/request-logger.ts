import type { Request } from '../http/request.js';
import { logArguments, type Logger } from './logger.js';

/**
 * A request's logger: a child of the application's logger bound to the request id and, once
 * routing named it, the route. The child is built on the first record, not with the request, so
 * a request that logs nothing costs one small object; it is built again if the route changed
 * since (a record written before routing has no route).
 */
export class RequestLogger implements Logger {
  readonly #parent: Logger;
  readonly #request: Request;
  readonly #bindings: Readonly<Record<string, unknown>> | undefined;
  #bound: Logger | undefined;
  #boundRoute: string | undefined;

  constructor(parent: Logger, request: Request, bindings?: Readonly<Record<string, unknown>>) {
    this.#parent = parent;
    this.#request = request;
    this.#bindings = bindings;
  }

  debug(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    this.#logger().debug(context, message);
  }
  info(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    this.#logger().info(context, message);
  }
  warn(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    this.#logger().warn(context, message);
  }
  error(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    this.#logger().error(context, message);
  }
  fatal(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    this.#logger().fatal(context, message);
  }
  critical(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    const logger = this.#logger();
    if (logger.critical) logger.critical(context, message);
    else logger.fatal(context, message);
  }

  /** Bound like this one, plus `bindings` (a channel, say); built lazily too. */
  child(bindings: Record<string, unknown>): Logger {
    return new RequestLogger(this.#parent, this.#request, { ...this.#bindings, ...bindings });
  }

  isLevelEnabled(level: string): boolean {
    return this.#parent.isLevelEnabled?.(level) ?? true;
  }

  #logger(): Logger {
    const route = this.#request.attributes.get('_route');
    if (this.#bound === undefined || route !== this.#boundRoute) {
      this.#boundRoute = route;
      const bindings: Record<string, unknown> = { ...this.#bindings, requestId: this.#request.attributes.get('_request_id') };
      if (route !== undefined) bindings['route'] = route;
      this.#bound = this.#parent.child(bindings);
    }
    return this.#bound;
  }
}

/** The id of the request chain `request` belongs to (`_request_id`; a sub-request has its main request's). */
export function requestIdOf(request: Request): string | undefined {
  return request.attributes.get('_request_id') ?? request.originalRequest.attributes.get('_request_id');
}
