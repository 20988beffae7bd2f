import { describe, expect, it } from 'vitest';
import { REDACTED, redactCredentials } from '../src/index.js';

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
  ])('redacts %s', (input, expected) => {
    expect(redactCredentials(input)).toBe(expected);
  });

  it.each([
    'GET http://www.example.com/items/1.json',
    'eyes.are.blue and v1.2.3 and file.tar.gz',
    'Bearer realm="api", error="invalid_token"',
    'a bearer of news',
  ])('leaves %s alone', (text) => {
    expect(redactCredentials(text)).toBe(text);
  });
});
