/**
 * A request the adapter cannot turn into a kernel request (an invalid or repeated `Host`, a
 * request target that is no path, a transfer coding or an HTTP version it does not speak):
 * answered with a short plain response (`status`, 400 unless said otherwise) before the kernel
 * is involved.
 */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';

  constructor(
    message: string,
    readonly status: 400 | 501 | 505 = 400,
  ) {
    super(message);
  }
}
