import { ServiceUnavailableHttpError } from '@switchboard/http-kernel';

/** 503 from a limiter that fails closed while its store cannot answer; the client may retry in a second. */
export class RateLimitStoreUnavailableError extends ServiceUnavailableHttpError {
  constructor(cause: unknown) {
    super('The rate limit store is unavailable.', { cause, headers: { 'retry-after': '1' } });
  }
}
