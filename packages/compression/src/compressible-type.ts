import mimeDb from 'mime-db';

/** Types the MIME database does not list but whose structured-syntax suffix says they are text. */
const TEXT_SUFFIX = /^text\/|\+(?:json|text|xml)$/;
const cache = new Map<string, boolean>();

/**
 * Whether a body of this `Content-Type` is worth compressing, by the MIME database's
 * `compressible` flag (images, archives and media already are compressed), or, for a type it
 * does not know, by a `text/*` type or a `+json`/`+xml` suffix. The event stream type is decided
 * by the route, never here.
 */
export function isCompressibleType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  if (type === 'text/event-stream') return false;
  let compressible = cache.get(type);
  if (compressible === undefined) {
    compressible = mimeDb[type]?.compressible ?? TEXT_SUFFIX.test(type);
    // Bounded: a client cannot grow it, only the app's own types reach here.
    if (cache.size < 256) cache.set(type, compressible);
  }
  return compressible;
}
