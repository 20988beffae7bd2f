import he from 'he';

/** HTML that is already escaped (or written by us): interpolated as is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | ReadonlyArray<Interpolation>;

/**
 * Tagged template for the profiler pages: every interpolated value is escaped with `he` unless it
 * is `SafeHtml` (another `html` result); arrays are joined; `null`, `undefined` and `false` print nothing.
 * So nothing a request carried (path, headers, messages) can become markup.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

function render(value: Interpolation): string {
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return he.escape(String(value));
}

/** Query string for a link, values percent-encoded. */
export function query(params: Readonly<Record<string, string | number | undefined>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
