import type { Request } from '../../http/request.js';
import type { ArgumentMetadata } from '../controller.js';
import type { ValueResolver } from './value-resolver.js';

/** An argument named like a request attribute (a route parameter, `_route`…) receives its value. */
export class RequestAttributeValueResolver implements ValueResolver {
  readonly name = 'request_attribute';

  resolve(request: Request, argument: ArgumentMetadata): readonly unknown[] | null {
    if (argument.variadic || !request.attributes.has(argument.name)) return null;
    return [request.attributes.get(argument.name)];
  }

  canResolve(argument: ArgumentMetadata, attributes: ReadonlySet<string>): boolean {
    return !argument.variadic && attributes.has(argument.name);
  }
}
