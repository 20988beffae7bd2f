/** One element of a weighted header list (`Accept`, `Accept-Language`…) with its weight. */
export interface QualityItem {
  /** The element before its parameters, trimmed, as sent. */
  readonly value: string;
  /** Its parameters before the weight, names lower-cased, quoted values unquoted. */
  readonly parameters: ReadonlyArray<readonly [name: string, value: string]>;
  /** The `q` weight, 0 to 1; 1 when absent. */
  readonly quality: number;
  /** The element's place in the header, for ties. */
  readonly index: number;
}

const QUALITY = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
/** More than any real client sends; the rest is ignored, so a huge header costs nothing more. */
const MAX_ITEMS = 64;

/**
 * Parses a list of the form `element *( OWS ";" OWS parameter ) [ weight ]`, comma-separated (RFC
 * 9110 §5.6.1, §12.4.2). A parameter value may be a quoted string (holding commas or semicolons);
 * parameters after the weight (accept extensions) are ignored. An element whose weight or parameters
 * are malformed is dropped with no effect on the others. Elements with `q=0` are kept: they refuse.
 */
export function parseQualityList(header: string): QualityItem[] {
  const items: QualityItem[] = [];
  const elements = header.includes('"') ? splitOutsideQuotes(header, ',') : header.split(',');
  const count = Math.min(elements.length, MAX_ITEMS);
  for (let index = 0; index < count; index++) {
    const element = elements[index]!;
    const pieces = element.includes(';') ? (element.includes('"') ? splitOutsideQuotes(element, ';') : element.split(';')) : [element];
    const value = pieces[0]!.trim();
    if (value === '') continue;
    const parameters: Array<readonly [string, string]> = [];
    let quality = 1;
    let valid = true;
    for (let p = 1; p < pieces.length; p++) {
      const parameter = pieces[p]!.trim();
      const equals = parameter.indexOf('=');
      const name = (equals < 0 ? parameter : parameter.slice(0, equals)).trim().toLowerCase();
      const raw = equals < 0 ? '' : parameter.slice(equals + 1).trim();
      if (name === 'q') {
        if (!QUALITY.test(raw)) valid = false;
        else quality = Number(raw);
        break;
      }
      if (!TOKEN.test(name) || equals < 0) {
        valid = false;
        break;
      }
      const unquoted = unquote(raw);
      if (unquoted === null) {
        valid = false;
        break;
      }
      parameters.push([name, unquoted]);
    }
    if (valid) items.push({ value, parameters, quality, index });
  }
  return items;
}

/** A token, or a quoted string without its quotes and escapes; `null` when it is neither. */
function unquote(raw: string): string | null {
  if (!raw.startsWith('"')) return TOKEN.test(raw) ? raw : null;
  if (raw.length < 2 || !raw.endsWith('"')) return null;
  return raw.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** `text` split at each `separator` that is not inside a quoted string. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '\\') i++;
    else if (char === '"') quoted = !quoted;
    else if (!quoted && char === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
