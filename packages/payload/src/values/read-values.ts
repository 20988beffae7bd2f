import type { Request } from '@switchboard/http-kernel';
import type { ValueOptions } from '../argument/payload-options.js';

/**
 * The raw values a headers or cookies mapping names, `undefined` where absent. A header sent on
 * several lines is one value, its lines joined with ", " (how HTTP combines a repeated field).
 */
export function readValues(request: Request, options: ValueOptions): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = Object.create(null);
  if (options.from === 'headers') {
    for (const name of Object.keys(options.schema)) {
      const lines = request.headers.getAll(name);
      values[name] = lines.length === 0 ? undefined : lines.join(', ');
    }
    return values;
  }
  const cookies = request.cookies;
  for (const name of Object.keys(options.schema)) values[name] = cookies.get(name);
  return values;
}
