import { parseQualityList } from './quality-list.js';

/** A media range of `Accept` (`text/*;q=0.5`), lower-cased. */
export interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  /** Parameters before the weight (`level=1`), names and values lower-cased. */
  readonly parameters: ReadonlyArray<readonly [name: string, value: string]>;
  readonly quality: number;
  /** Its place in the header, for ties. */
  readonly index: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * The well-formed media ranges of an `Accept` header, in header order; malformed ranges (no
 * slash, `*\/json`, a weight above 1…) are skipped. Ranges with `q=0` are kept: they refuse.
 */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const item of parseQualityList(header)) {
    const mediaType = parseMediaType(item.value);
    if (mediaType === null) continue;
    const parameters = item.parameters.map(([name, value]) => [name, value.toLowerCase()] as const);
    ranges.push({ ...mediaType, parameters, quality: item.quality, index: item.index });
  }
  return ranges;
}

/** `type/subtype` lower-cased, or `null` when malformed (`*` only as `*\/*` or `type/*`). */
function parseMediaType(value: string): { type: string; subtype: string } | null {
  const text = value.toLowerCase();
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const type = text.slice(0, slash);
  const subtype = text.slice(slash + 1);
  if (!TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) return null;
  return { type, subtype };
}

interface Offer {
  readonly mediaType: string;
  readonly type: string;
  readonly subtype: string;
  readonly parameters: ReadonlyMap<string, string>;
}

/**
 * Chooses among the media types a server offers the one an `Accept` header prefers (RFC 9110
 * §12.5.1), parsing the offers once. Each offer takes the weight of the most specific range that
 * matches it (`type/subtype` with parameters, then `type/subtype`, then `type/*`, then `*\/*`); a
 * range's parameters must all be on the offer, except `charset`, which an offer without one
 * satisfies. The highest weight wins, then the more specific range, then the range listed first,
 * then the order of the offers. A weight of 0 refuses.
 *
 * With no `Accept`, an empty one, or one whose ranges are all malformed, the client takes anything:
 * the first offer. `null` means it accepts none of them (a 406, or a default of the caller's).
 */
export class MediaTypeNegotiator {
  readonly offered: readonly string[];
  readonly #offers: readonly Offer[];
  /**
   * The last header negotiated and its choice: clients send the same `Accept` again and again,
   * and the choice is a pure function of it (the offers never change).
   */
  #lastAccept: string | undefined;
  #lastChoice: string | null = null;

  constructor(offered: readonly string[]) {
    if (offered.length === 0) throw new RangeError('A negotiator needs at least one media type to offer.');
    this.offered = offered;
    this.#offers = offered.map((mediaType) => {
      const [range] = parseAccept(mediaType);
      if (range === undefined || range.type === '*' || range.subtype === '*') {
        throw new RangeError(`"${mediaType}" is not a media type that can be offered.`);
      }
      return { mediaType, type: range.type, subtype: range.subtype, parameters: new Map(range.parameters) };
    });
  }

  /** The preferred offer, or `null` when the header accepts none. */
  negotiate(accept: string | undefined): string | null {
    if (accept === undefined) return this.offered[0]!;
    if (accept !== this.#lastAccept) {
      this.#lastChoice = this.#choose(accept);
      this.#lastAccept = accept;
    }
    return this.#lastChoice;
  }

  #choose(accept: string): string | null {
    // A single media type without parameters (what API clients send) needs no parsing.
    if (!accept.includes(',') && !accept.includes(';')) {
      const mediaType = accept.trim().toLowerCase();
      const exact = this.#offers.find((offer) => offer.parameters.size === 0 && `${offer.type}/${offer.subtype}` === mediaType);
      if (exact !== undefined) return exact.mediaType;
    }
    const ranges = parseAccept(accept);
    if (ranges.length === 0) return this.offered[0]!;
    let best: { offer: Offer; quality: number; specificity: number; index: number } | null = null;
    for (const offer of this.#offers) {
      let match: MediaRange | null = null;
      let specificity = -1;
      for (const range of ranges) {
        const s = specificityOf(range, offer);
        if (s > specificity) {
          match = range;
          specificity = s;
        }
      }
      if (match === null || match.quality === 0) continue;
      if (
        best === null ||
        match.quality > best.quality ||
        (match.quality === best.quality &&
          (specificity > best.specificity || (specificity === best.specificity && match.index < best.index)))
      ) {
        best = { offer, quality: match.quality, specificity, index: match.index };
      }
    }
    return best === null ? null : best.offer.mediaType;
  }
}

/** How specifically `range` names `offer`: -1 when it does not match, else 0 (`*\/*`) up to 2 + its parameters. */
function specificityOf(range: MediaRange, offer: Offer): number {
  let specificity: number;
  if (range.type === '*') specificity = 0;
  else if (range.type !== offer.type) return -1;
  else if (range.subtype === '*') specificity = 1;
  else if (range.subtype !== offer.subtype) return -1;
  else specificity = 2;
  for (const [name, value] of range.parameters) {
    const offered = offer.parameters.get(name);
    if (offered === undefined ? name !== 'charset' : offered !== value) return -1;
    specificity++;
  }
  return specificity;
}

/** `new MediaTypeNegotiator(offered).negotiate(accept)`, for a one-off choice. */
export function negotiateMediaType(accept: string | undefined, offered: readonly string[]): string | null {
  return new MediaTypeNegotiator(offered).negotiate(accept);
}
