import { randomBytes } from 'node:crypto';
import type { BodyPiece, ByteRange } from './seekable-body.js';

/**
 * The pieces of a `multipart/byteranges` body (RFC 9110 §14.6): before each range a boundary
 * line and its part's `Content-Type` and `Content-Range`, after the last the closing boundary.
 * Returns the boundary for the response's `Content-Type`.
 */
export function multipartByteranges(
  ranges: readonly ByteRange[],
  size: number,
  contentType: string | undefined,
): { boundary: string; pieces: BodyPiece[] } {
  const boundary = randomBytes(12).toString('hex');
  const encoder = new TextEncoder();
  const pieces: BodyPiece[] = [];
  ranges.forEach((range, index) => {
    const typeLine = contentType === undefined ? '' : `content-type: ${contentType}\r\n`;
    const lead = index === 0 ? '' : '\r\n';
    pieces.push(encoder.encode(`${lead}--${boundary}\r\n${typeLine}content-range: ${contentRange(range, size)}\r\n\r\n`), range);
  });
  pieces.push(encoder.encode(`\r\n--${boundary}--\r\n`));
  return { boundary, pieces };
}

export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}

/** The length of a body made of `pieces`. */
export function piecesLength(pieces: readonly BodyPiece[]): number {
  let length = 0;
  for (const piece of pieces) length += piece instanceof Uint8Array ? piece.byteLength : piece.end - piece.start + 1;
  return length;
}

/** A buffered body cut into `pieces`: the same bytes a seekable body would stream. */
export function concatPieces(bytes: Uint8Array, pieces: readonly BodyPiece[]): Uint8Array {
  return Buffer.concat(pieces.map((piece) => (piece instanceof Uint8Array ? piece : bytes.subarray(piece.start, piece.end + 1))));
}
