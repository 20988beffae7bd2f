/** Session state was touched while handling a request declared stateless (debug mode). A 500: it is a bug in the app. */
export class UnexpectedSessionUsageError extends Error {
  constructor(readonly sources: readonly string[]) {
    super(`Session was used while the request was declared stateless (${sources.join(', ')}).`);
    this.name = 'UnexpectedSessionUsageError';
  }
}
