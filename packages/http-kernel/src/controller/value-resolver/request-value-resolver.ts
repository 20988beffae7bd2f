import type { Request } from '../../http/request.js';
import type { ArgumentMetadata } from '../controller.js';
import type { ValueResolver } from './value-resolver.js';

/** An argument named `request` receives the Request. */
export class RequestValueResolver implements ValueResolver {
  readonly name = 'request';

  resolve(request: Request, argument: ArgumentMetadata): readonly unknown[] | null {
    return argument.name === 'request' ? [request] : null;
  }

  canResolve(argument: ArgumentMetadata): boolean {
    return argument.name === 'request';
  }
}
