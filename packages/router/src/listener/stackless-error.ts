/**
 * An error of class `type` made without its constructors, so without the work of `Error`'s (a
 * stack trace, even an empty one): for the router's 404 and 405 outside debug mode, which nobody
 * reads a stack of (docs/decisions.md D5). It has what the constructors would have given it:
 * `message`, `stack` as the engine writes it for an error without frames, `cause`, then `name`
 * and `fields` as own properties, in that order.
 */
export function stacklessError<E extends Error>(
  type: abstract new (...args: never[]) => E,
  message: string,
  cause: unknown,
  fields: Omit<E, keyof Error>,
): E {
  const error = Object.create(type.prototype as object) as E;
  const name = type.name;
  Object.defineProperty(error, 'message', { value: message, writable: true, configurable: true });
  Object.defineProperty(error, 'stack', { value: message === '' ? name : `${name}: ${message}`, writable: true, configurable: true });
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, writable: true, configurable: true });
  error.name = name;
  return Object.assign(error, fields);
}
