/** A format the error controller can answer in, with the media types it answers to. */
export interface Negotiable {
  /** Media types this format satisfies, exact (`text/html`), lower case. */
  readonly accepts: readonly string[];
}

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly quality: number;
  readonly index: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const QUALITY = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Picks the format for an `Accept` header (RFC 9110 12.5.1): each format takes the quality of the
 * most specific range that matches it; the highest quality wins, then the more specific match,
 * then the range listed first, then the order of `formats`. A missing header, a header that
 * accepts any type, one whose ranges are all malformed, or one that accepts none of the formats gives the first format
 * (HTML): an error page is always sent, never a 406.
 */
export function negotiateRenderer<F extends Negotiable>(accept: string | undefined, formats: readonly [F, ...F[]]): F {
  // A single exact media type (`application/json`, what API clients send) needs no parsing: the
  // first format that lists it is the one the full negotiation below would pick.
  if (accept !== undefined && !accept.includes(',') && !accept.includes(';')) {
    const mediaType = accept.trim().toLowerCase();
    const exact = formats.find((format) => format.accepts.includes(mediaType));
    if (exact !== undefined) return exact;
  }
  const ranges = parseAccept(accept ?? '');
  let best: { format: F; quality: number; specificity: number; index: number; order: number } | null = null;
  formats.forEach((format, order) => {
    const match = bestRange(ranges, format.accepts);
    if (match === null || match.range.quality === 0) return;
    const candidate = { format, quality: match.range.quality, specificity: match.specificity, index: match.range.index, order };
    if (best === null || isBetter(candidate, best)) best = candidate;
  });
  return best === null ? formats[0] : (best as { format: F }).format;
}

function isBetter(
  a: { quality: number; specificity: number; index: number; order: number },
  b: { quality: number; specificity: number; index: number; order: number },
): boolean {
  if (a.quality !== b.quality) return a.quality > b.quality;
  if (a.specificity !== b.specificity) return a.specificity > b.specificity;
  if (a.index !== b.index) return a.index < b.index;
  return a.order < b.order;
}

function bestRange(ranges: readonly MediaRange[], accepts: readonly string[]): { range: MediaRange; specificity: number } | null {
  let best: { range: MediaRange; specificity: number } | null = null;
  for (const mediaType of accepts) {
    const [type, subtype] = mediaType.split('/') as [string, string];
    for (const range of ranges) {
      const specificity =
        range.type === type && range.subtype === subtype
          ? 2
          : range.type === type && range.subtype === '*'
            ? 1
            : range.type === '*' && range.subtype === '*'
              ? 0
              : -1;
      if (specificity < 0) continue;
      if (best === null || specificity > best.specificity) best = { range, specificity };
    }
  }
  return best;
}

/** Well-formed media ranges of the header; malformed ones are skipped. */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  header.split(',').forEach((part, index) => {
    const [mediaRange, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const slash = mediaRange?.indexOf('/') ?? -1;
    if (mediaRange === undefined || slash < 0) return;
    const type = mediaRange.slice(0, slash);
    const subtype = mediaRange.slice(slash + 1);
    if (!TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) return;
    let quality = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((piece) => piece.trim());
      if (name !== 'q') continue;
      if (value === undefined || !QUALITY.test(value)) return;
      quality = Number(value);
    }
    ranges.push({ type, subtype, quality, index });
  });
  return ranges;
}
