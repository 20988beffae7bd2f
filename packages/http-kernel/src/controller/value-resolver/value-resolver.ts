import type { Request } from '../../http/request.js';
import type { ArgumentMetadata } from '../controller.js';

/**
 * Supplies values for controller arguments. Returns the values for `argument` (one, or several
 * for a variadic argument), or `null` when it does not handle this argument so the next
 * resolver is asked. May return a promise (reading a body, for instance).
 */
export interface ValueResolver {
  readonly name: string;
  resolve(request: Request, argument: ArgumentMetadata): readonly unknown[] | null | Promise<readonly unknown[] | null>;
  /**
   * Whether this resolver gives `argument` a value on a route whose requests carry `attributes`
   * (the route's parameters and defaults, and the attributes registered listeners set). Asked
   * before serving, without a request: an argument no resolver claims is refused then
   * (`HttpKernel.checkDeclarations`), rather than failing each request to its route.
   */
  canResolve(argument: ArgumentMetadata, attributes: ReadonlySet<string>): boolean;
}
