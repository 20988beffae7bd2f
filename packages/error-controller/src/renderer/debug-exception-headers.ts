import type { FlattenedError } from '../flatten/flatten-error.js';

/** The reference cuts the message to this many bytes before encoding it into a header. */
export const MAX_DEBUG_MESSAGE_BYTES = 2000;

/**
 * `x-debug-exception` and `x-debug-exception-file`: the message cut to 2000
 * UTF-8 bytes, then percent-encoded RFC 3986 style; the throw site as encoded path, `:`, line.
 */
export function debugExceptionHeaders(error: FlattenedError): Record<string, string> {
  const headers: Record<string, string> = {
    'x-debug-exception': encodeTextRfc3986(error.message, MAX_DEBUG_MESSAGE_BYTES),
  };
  if (error.file !== null) {
    headers['x-debug-exception-file'] = `${encodeTextRfc3986(error.file, Number.POSITIVE_INFINITY)}:${error.line ?? 0}`;
  }
  return headers;
}

/** Characters `encodeURIComponent` leaves as they are that RFC 3986 reserves. */
const SUB_DELIMS = /[!'()*]/g;

/**
 * `encodeRfc3986` of `text`'s UTF-8 bytes, the first `maxBytes` of them. A text that fits and is
 * well-formed UTF-16 is encoded by `encodeURIComponent`, which gives the same string without
 * copying bytes; a cut or a lone surrogate goes through the bytes.
 */
function encodeTextRfc3986(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) {
    try {
      return encodeURIComponent(text).replace(SUB_DELIMS, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
    } catch {
      // A lone surrogate: its bytes are those of U+FFFD, as Buffer.from writes them.
    }
  }
  return encodeRfc3986(Buffer.from(text, 'utf8').subarray(0, maxBytes));
}

const HEX = '0123456789ABCDEF';

/**
 * Percent-encodes every byte except the RFC 3986 unreserved set (`A–Z a–z 0–9 - . _ ~`), so
 * space is `%20` and `!'()*` are encoded too. Works on bytes, because a 2000-byte cut may split a
 * UTF-8 sequence, which `encodeURIComponent` would refuse.
 */
export function encodeRfc3986(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
    const unreserved =
      (byte >= 0x30 && byte <= 0x39) ||
      (byte >= 0x41 && byte <= 0x5a) ||
      (byte >= 0x61 && byte <= 0x7a) ||
      byte === 0x2d ||
      byte === 0x2e ||
      byte === 0x5f ||
      byte === 0x7e;
    out += unreserved ? String.fromCharCode(byte) : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}
