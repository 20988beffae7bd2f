import type { Request } from '@switchboard/http-kernel';
import type { FlattenedError } from '../flatten/flatten-error.js';
import type { Negotiable } from './negotiate-renderer.js';

/** What a renderer produces: the body and its content type. */
export interface RenderedError {
  readonly body: string;
  readonly contentType: string;
}

/**
 * Renders a flattened error in one format. `request` is the error sub-request (same URL and
 * headers as the request that failed). Renderers must escape whatever came from the request or
 * the error for their format, and show stack traces and file names only when `debug` is on.
 */
export interface ErrorRenderer extends Negotiable {
  /**
   * Whether this format shows lines of source around frames (`FlattenedFrame.excerpt`). Source
   * files are read in debug mode only for a renderer that shows them; left out, they are read.
   */
  readonly showsSourceLines?: boolean;
  render(error: FlattenedError, request: Request): RenderedError;
}

/** Request headers that carry credentials: never shown on a page. */
export const REDACTED_REQUEST_HEADERS: ReadonlySet<string> = new Set(['authorization', 'cookie', 'proxy-authorization']);
