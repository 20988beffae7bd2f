import { MediaTypeNegotiator } from '@switchboard/http-kernel/negotiation';

/** A format the error controller can answer in, with the media types it answers to. */
export interface Negotiable {
  /** Media types this format satisfies, exact (`text/html`), lower case. */
  readonly accepts: readonly string[];
}

/** A list of formats' negotiator, and the format of each media type it offers. */
interface FormatNegotiation<F> {
  readonly negotiator: MediaTypeNegotiator;
  readonly formatOf: ReadonlyMap<string, F>;
}

/** One per list of formats, made at its first use. */
const negotiations = new WeakMap<readonly Negotiable[], FormatNegotiation<Negotiable>>();

/**
 * The format an `Accept` header prefers, by the kernel's `MediaTypeNegotiator` over every media
 * type of every format in order; `null` when it accepts none of them.
 */
export function acceptedRenderer<F extends Negotiable>(accept: string | undefined, formats: readonly [F, ...F[]]): F | null {
  let negotiation = negotiations.get(formats) as FormatNegotiation<F> | undefined;
  if (negotiation === undefined) {
    const formatOf = new Map<string, F>();
    // A media type two formats answer to belongs to the first, as the negotiator's order says.
    for (const format of formats) for (const mediaType of format.accepts) if (!formatOf.has(mediaType)) formatOf.set(mediaType, format);
    negotiation = { negotiator: new MediaTypeNegotiator([...formatOf.keys()]), formatOf };
    negotiations.set(formats, negotiation);
  }
  const mediaType = negotiation.negotiator.negotiate(accept);
  return mediaType === null ? null : negotiation.formatOf.get(mediaType)!;
}

/**
 * Picks the format for an `Accept` header (RFC 9110 §12.5.1, see `MediaTypeNegotiator`). A missing
 * header, a header that accepts any type, one whose ranges are all malformed, or one that accepts
 * none of the formats gives the first format (HTML): an error page is always sent, never a 406.
 */
export function negotiateRenderer<F extends Negotiable>(accept: string | undefined, formats: readonly [F, ...F[]]): F {
  return acceptedRenderer(accept, formats) ?? formats[0];
}
