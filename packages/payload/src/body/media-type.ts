/** The essence of a media type (`application/json; charset=utf-8` → `application/json`) and its charset. */
export interface MediaType {
  readonly essence: string;
  readonly charset: string | null;
}

export function parseMediaType(header: string | undefined): MediaType | null {
  if (header === undefined || header.trim() === '') return null;
  const [type = '', ...params] = header.split(';');
  let charset: string | null = null;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return { essence: type.trim().toLowerCase(), charset };
}

const JSON_SUFFIX_MEDIA_TYPE = /^application\/[^/]+\+json$/;

/** `application/json` and any `+json` structured syntax suffix (`application/merge-patch+json`…). */
export function isJsonMediaType(essence: string): boolean {
  return essence === 'application/json' || JSON_SUFFIX_MEDIA_TYPE.test(essence);
}
