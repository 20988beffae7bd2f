import { create } from 'content-disposition';

export type DispositionType = 'inline' | 'attachment';

/**
 * `Content-Disposition` for a file name (RFC 6266): `filename="…"` holds a plain-ASCII stand-in
 * that every client reads, and a name with anything else also gets `filename*=UTF-8''…`
 * (RFC 8187 percent-encoding), which current clients prefer. Quotes, backslashes and control
 * characters never reach the header as they are, so a name cannot add a parameter or a header.
 */
export function contentDisposition(type: DispositionType, filename: string): string {
  const fallback = asciiFallback(filename);
  return create(filename, { type, fallback: fallback === filename ? true : fallback });
}

/** Accents dropped (`é` → `e`), then every character outside printable ASCII, `"` and `\` become `_`. */
export function asciiFallback(filename: string): string {
  return filename
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_');
}
