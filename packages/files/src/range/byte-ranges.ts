import parseRange from 'range-parser';
import type { ByteRange } from './seekable-body.js';

/**
 * What a `Range` header asks of a body of `size` bytes:
 * - `ignore`: not a byte range we serve — malformed, another unit, overlapping ranges or more
 *   than `maxRanges` of them (RFC 9110 §14.2 lets a server ignore those): the whole body, 200;
 * - `unsatisfiable`: no range starts inside the body: 416;
 * - `ranges`: the satisfiable ranges, clipped to the body, in the order asked.
 */
export type RangeRequest =
  | { readonly kind: 'ignore' }
  | { readonly kind: 'unsatisfiable' }
  | { readonly kind: 'ranges'; readonly ranges: readonly ByteRange[] };

const IGNORE: RangeRequest = { kind: 'ignore' };

export function parseByteRanges(header: string, size: number, maxRanges: number): RangeRequest {
  // Counted before parsing, so a header of thousands of ranges costs no more than the count.
  if (header.split(',').length > maxRanges) return IGNORE;
  const parsed = parseRange(size, header);
  if (parsed === -2 || (parsed !== -1 && parsed.type !== 'bytes')) return IGNORE;
  if (parsed === -1 || parsed.length === 0) return { kind: 'unsatisfiable' };
  const ranges = parsed.map(({ start, end }) => ({ start, end }));
  return overlaps(ranges) ? IGNORE : { kind: 'ranges', ranges };
}

/** Whether two ranges share a byte: a way to make one request send the same bytes many times. */
function overlaps(ranges: readonly ByteRange[]): boolean {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  return sorted.some((range, index) => index > 0 && range.start <= sorted[index - 1]!.end);
}
