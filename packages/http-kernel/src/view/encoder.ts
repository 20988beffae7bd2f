import type { HeaderBag } from '../http/header-bag.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';

/** What an encoder is given besides the data. */
export interface EncodeContext {
  readonly request: Request;
  readonly status: number;
  /** The view's headers and `Vary`, to be the response's. */
  readonly headers: HeaderBag;
}

/**
 * Writes a controller's data in one format. Register yours with the `ViewListener` (`encoders`);
 * routes name formats in their `_formats` default.
 */
export interface Encoder {
  /** The name routes give it in `_formats` (`json`, `csv`). */
  readonly format: string;
  /** The media type it writes, the one `Accept` is matched against. */
  readonly mediaType: string;
  /**
   * Whether its documents are a sequence, one per element of a list (NDJSON, event streams): the
   * OpenAPI document then describes one element.
   */
  readonly sequence?: boolean;
  /** Writes a whole value; absent when the format only streams. */
  encode?(data: unknown, context: EncodeContext): Response;
  /** Writes the values of an async iterable as they come; absent when the format cannot stream. */
  encodeStream?(items: AsyncIterable<unknown>, context: EncodeContext): Response;
}
