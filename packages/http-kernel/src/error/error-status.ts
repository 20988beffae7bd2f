import type { HeaderValue } from '../http/header-bag.js';
import { DeferredHttpError } from './deferred-http-error.js';
import { HttpError } from './http-error.js';

/** The status an error maps to: its own for an `HttpError` (or a `DeferredHttpError`), 500 for anything else. */
export function statusOf(error: unknown): number {
  return error instanceof HttpError || error instanceof DeferredHttpError ? error.status : 500;
}

/** The headers the response to an error must carry: an `HttpError`'s (or a `DeferredHttpError`'s), none for anything else. */
export function errorHeadersOf(error: unknown): Readonly<Record<string, HeaderValue>> {
  return error instanceof HttpError || error instanceof DeferredHttpError ? error.headers : {};
}
