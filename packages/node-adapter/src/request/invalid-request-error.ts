/**
 * A request the adapter cannot turn into a kernel request (an invalid `Host`, a request target
 * that is no path): answered with a short plain 400 before the kernel is involved.
 */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
}
