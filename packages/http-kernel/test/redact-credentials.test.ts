import { describe, expect, it } from 'vitest';
import { REDACTED, redactCredentials } from '../src/redaction.js';

const JWT = 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VybmFtZSI6ImRlbW8ifQ.MEUCIQDtBV3cHsSlQeAKPGbBHG8hlZrXXJ3FhVE2RdSXbXq6RQ';
const UNSIGNED = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.';

describe('redactCredentials', () => {
  it.each([
    [`GET http://h/api/items?access_token=${JWT}&page=2`, `GET http://h/api/items?access_token=${REDACTED}&page=2`],
    [
      `No route found for "GET http://h/t/${JWT}" (from "http://r/?t=${JWT}")`,
      `No route found for "GET http://h/t/${REDACTED}" (from "http://r/?t=${REDACTED}")`,
    ],
    [`sid=${JWT}; theme=dark`, `sid=${REDACTED}; theme=dark`],
    [`alg none: ${UNSIGNED}`, `alg none: ${REDACTED}`],
    ['Bearer opaque-token_123', `Bearer ${REDACTED}`],
    ['/x?auth=Bearer%20opaque.token~1', `/x?auth=Bearer%20${REDACTED}`],
    ['/x?auth=bearer+b64/token==&y=1', `/x?auth=bearer+${REDACTED}&y=1`],
    [`Authorization: Bearer ${JWT}`, `Authorization: Bearer ${REDACTED}`],
    ['Bearer Bearer opaque-token_123', `Bearer Bearer ${REDACTED}`],
    ['bearer short, Bearer opaque-token_123', `bearer short, Bearer ${REDACTED}`],
    // Past 8,192 characters a value is hidden whatever follows it.
    [`Bearer ${'a'.repeat(8192)}=="x"`, `Bearer ${REDACTED}"x"`],
  ])('redacts %s', (input, expected) => {
    expect(redactCredentials(input)).toBe(expected);
  });

  it.each([
    'GET http://www.example.com/items/1.json',
    'eyes.are.blue and v1.2.3 and file.tar.gz',
    'Bearer realm="api", error="invalid_token"',
    'a bearer of news',
    'Bearer token_longer_than_eight=chars',
    `/x?a=${'Bearer+'.repeat(100)}=a`,
  ])('leaves %s alone', (text) => {
    expect(redactCredentials(text)).toBe(text);
  });
});

describe('redactCredentials on hostile input', () => {
  // `Bearer+` repeated, then `=a`: every `Bearer` starts a candidate whose value runs to the end
  // and is refused there. A pattern that backtracks over the run at each candidate does work
  // quadratic in the length (about 1 s for 64 KiB); redaction must stay linear, which
  // `bench/redaction-scaling.bench.ts` measures.
  const hostile = (length: number): string => `/x?a=${'Bearer+'.repeat(Math.floor(length / 7))}=a`;

  it('hides a value of 64 KiB, past the 8,192-character cap, and leaves a shorter refused one alone', () => {
    expect(redactCredentials(hostile(64 * 1024))).toBe(`/x?a=Bearer+${REDACTED}a`);
    expect(redactCredentials(hostile(8000))).toBe(hostile(8000));
  });
});
