import { MediaTypeNegotiator } from '@switchboard/http-kernel/negotiation';

/** A format the error controller can answer in, with the media types it answers to. */
export interface Negotiable {
  /** Media types this format satisfies, exact (`text/html`), lower case. */
  readonly accepts: readonly string[];
}

/** One negotiator per list of formats, made at its first use. */
const negotiators = new WeakMap<readonly Negotiable[], MediaTypeNegotiator>();

/**
 * The format an `Accept` header prefers, by the kernel's `MediaTypeNegotiator` over every media
 * type of every format in order; `null` when it accepts none of them.
 */
export function acceptedRenderer<F extends Negotiable>(accept: string | undefined, formats: readonly [F, ...F[]]): F | null {
  let negotiator = negotiators.get(formats);
  if (negotiator === undefined) {
    negotiator = new MediaTypeNegotiator(formats.flatMap((format) => format.accepts));
    negotiators.set(formats, negotiator);
  }
  const mediaType = negotiator.negotiate(accept);
  return mediaType === null ? null : formats.find((format) => format.accepts.includes(mediaType))!;
}

/**
 * Picks the format for an `Accept` header (RFC 9110 §12.5.1, see `MediaTypeNegotiator`). A missing
 * header, a header that accepts any type, one whose ranges are all malformed, or one that accepts
 * none of the formats gives the first format (HTML): an error page is always sent, never a 406.
 */
export function negotiateRenderer<F extends Negotiable>(accept: string | undefined, formats: readonly [F, ...F[]]): F {
  return acceptedRenderer(accept, formats) ?? formats[0];
}
