import type { Request } from '../../http/request.js';
import type { ArgumentMetadata } from '../controller.js';
import type { ValueResolver } from './value-resolver.js';

/**
 * Last in the chain: a declared default is used; a default written in the source is applied by
 * JavaScript itself when the argument is `undefined`; a variadic argument gets nothing.
 */
export class DefaultValueResolver implements ValueResolver {
  readonly name = 'default';

  resolve(_request: Request, argument: ArgumentMetadata): readonly unknown[] | null {
    if (argument.variadic) return [];
    if (!argument.hasDefault) return null;
    return ['defaultValue' in argument ? argument.defaultValue : undefined];
  }

  canResolve(argument: ArgumentMetadata): boolean {
    return argument.variadic || argument.hasDefault;
  }
}
