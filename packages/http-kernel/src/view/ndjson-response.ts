import { JsonResponse } from '../http/response.js';

/**
 * NDJSON of a value: a list one element a line, anything else one line. A `JsonResponse`, so its
 * `data` stays readable and changeable until the body is written (a schema filter works on it as
 * on JSON).
 */
export class NdjsonResponse extends JsonResponse {
  protected override serialize(data: unknown): string {
    return Array.isArray(data) ? data.map(line).join('') : line(data);
  }
}

/** One JSON document and its line feed; `undefined` (which JSON cannot write) as `null`. */
export function line(value: unknown): string {
  return `${JSON.stringify(value) ?? 'null'}\n`;
}
