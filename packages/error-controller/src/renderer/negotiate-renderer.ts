import { MediaTypeNegotiator } from '@switchboard/http-kernel/negotiation';

/** A format the error controller can answer in, with the media types it answers to. */
export interface Negotiable {
  /** Media types this format satisfies, exact (`text/html`), lower case. */
  readonly accepts: readonly string[];
}

/** A list of formats' negotiation: the kernel's `MediaTypeNegotiator` over every media type of every format in order. */
export class FormatNegotiation<F extends Negotiable> {
  readonly #negotiator: MediaTypeNegotiator;
  readonly #formatOf = new Map<string, F>();

  constructor(formats: readonly F[]) {
    // A media type two formats answer to belongs to the first, as the negotiator's order says.
    for (const format of formats)
      for (const mediaType of format.accepts) if (!this.#formatOf.has(mediaType)) this.#formatOf.set(mediaType, format);
    this.#negotiator = new MediaTypeNegotiator([...this.#formatOf.keys()]);
  }

  /** The format an `Accept` header prefers; `null` when it accepts none of them. */
  accepted(accept: string | undefined): F | null {
    const mediaType = this.#negotiator.negotiate(accept);
    return mediaType === null ? null : this.#formatOf.get(mediaType)!;
  }
}

/** One per list of formats, made at its first use. */
const negotiations = new WeakMap<readonly Negotiable[], FormatNegotiation<Negotiable>>();

/**
 * Picks the format for an `Accept` header (RFC 9110 §12.5.1, see `MediaTypeNegotiator`). A missing
 * header, a header that accepts any type, one whose ranges are all malformed, or one that accepts
 * none of the formats gives the first format (HTML): an error page is always sent, never a 406.
 */
export function negotiateRenderer<F extends Negotiable>(accept: string | undefined, formats: readonly [F, ...F[]]): F {
  let negotiation = negotiations.get(formats) as FormatNegotiation<F> | undefined;
  if (negotiation === undefined) {
    negotiation = new FormatNegotiation(formats);
    negotiations.set(formats, negotiation);
  }
  return negotiation.accepted(accept) ?? formats[0];
}
