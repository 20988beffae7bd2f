/** Traces of the server's insides that must never reach a client in production mode. */
export const PRODUCTION_LEAKS: readonly RegExp[] = [
  /node_modules/,
  /\/src\//,
  /\.ts\b/,
  /\bat \S+ \(/,
  /HttpError\b/,
  /Exception\b/,
  /TypeError|RangeError/,
  /InvalidRequestError/,
  /x-debug-/i,
];
