/**
 * Media types a browser runs as a page or a script when it opens them: HTML and XHTML, SVG and
 * any XML (which can carry XHTML or an XSLT stylesheet), and JavaScript. Served inline from a
 * folder users can write to, such a file runs with the site's origin (stored cross-site scripting).
 */
const ACTIVE_TYPES: ReadonlySet<string> = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'application/xslt+xml',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'text/ecmascript',
  'application/ecmascript',
]);

/** Whether a `Content-Type` value names a type a browser would run (`+xml` types included). */
export function isActiveContentType(contentType: string): boolean {
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return ACTIVE_TYPES.has(essence) || essence.endsWith('+xml');
}
