/** What the matchers read of a response: a `TestResponse` fits, and so does anything with the same three members. */
export interface InspectableResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
  readonly url?: string;
}

/** How much of the body a failure message shows. */
export const SHOWN_BODY_BYTES = 500;

export function isInspectable(value: unknown): value is InspectableResponse {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<InspectableResponse>;
  return typeof candidate.status === 'number' && candidate.headers instanceof Headers && candidate.body instanceof Uint8Array;
}

/** The response as a failure message shows it: status, every header, then the first 500 bytes of the body. */
export function describeResponse(response: InspectableResponse): string {
  const lines = [`  HTTP ${response.status}${response.url === undefined ? '' : `  (${response.url})`}`];
  for (const [name, value] of response.headers) lines.push(`  ${name}: ${value}`);
  const shown = new TextDecoder().decode(response.body.subarray(0, SHOWN_BODY_BYTES));
  const more = response.body.byteLength > SHOWN_BODY_BYTES ? `\n  … (${response.body.byteLength - SHOWN_BODY_BYTES} more bytes)` : '';
  lines.push('', response.body.byteLength === 0 ? '  (empty body)' : shown.replace(/^/gm, '  ') + more);
  return lines.join('\n');
}
