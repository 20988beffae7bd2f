/**
 * `@switchboard/testing/vitest` — importing it registers the response matchers with vitest's
 * `expect` (`toHaveStatus`, `toHaveHeader`, `toMatchProblem`, `toRedirectTo`) and types them.
 * Import it once, in a setup file or at the top of a test file.
 * @module
 */
import { expect } from 'vitest';
import { toHaveHeader, toHaveStatus, toMatchProblem, toRedirectTo, type ExpectedProblem } from './response-matchers.js';

export {
  toHaveHeader,
  toHaveStatus,
  toMatchProblem,
  toRedirectTo,
  type ExpectedProblem,
  type MatcherOutcome,
} from './response-matchers.js';
export { describeResponse, SHOWN_BODY_BYTES, type InspectableResponse } from './describe-response.js';

/** The matchers this module adds to `expect(response)`. */
export interface ResponseMatchers<R> {
  /** The status is `status`. */
  toHaveStatus(status: number): R;
  /** The header is there; with `value`, equal to it (a string) or matching it (a pattern). */
  toHaveHeader(name: string, value?: string | RegExp): R;
  /** An `application/problem+json` body with this `status` (and `title`, `detail`, `type` when given). */
  toMatchProblem(expected: ExpectedProblem): R;
  /** A 301/302/303/307/308 whose `Location`, resolved against the response's URL, is `url`. */
  toRedirectTo(url: string): R;
}

declare module 'vitest' {
  // The type parameter must be declared exactly as vitest declares it for the interfaces to merge.
  // biome-ignore lint/suspicious/noExplicitAny: vitest's own declaration is `Matchers<T = any>`
  interface Matchers<T = any> extends ResponseMatchers<T> {}
}

expect.extend({ toHaveStatus, toHaveHeader, toMatchProblem, toRedirectTo });
