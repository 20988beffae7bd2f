import type { Request } from '@switchboard/http-kernel';
import type { ValueOptions } from '../argument/payload-options.js';
import { requestCookies } from './request-cookies.js';

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
  const cookies = requestCookies(request);
  for (const name of Object.keys(options.schema)) values[name] = Object.hasOwn(cookies, name) ? cookies[name] : undefined;
  return values;
}
