import { describe, expect, it } from 'vitest';
import { escapeControlCharacters, logSafeText, REDACTED, redactSecrets, TextRedactor } from '../src/redaction.js';

describe('redactSecrets', () => {
  it.each([
    ['/x?password=hunter2&page=2', `/x?password=${REDACTED}&page=2`],
    ['/x?api_key=k1&access_token=t1&token=t2', `/x?api_key=${REDACTED}&access_token=${REDACTED}&token=${REDACTED}`],
    ['/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz', `/callback?code=${REDACTED}&state=xyz`],
    ['/x;session=s1', `/x;session=${REDACTED}`],
    ['(from "https://ada:hunter2@ref.example/?x=1")', `(from "https://${REDACTED}@ref.example/?x=1")`],
    ['/x?pass%77ord=p1', `/x?pass%77ord=${REDACTED}`],
  ])('hides the secret in %s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it.each(['/x?status_code=404&zip_code=12345', '/x?error_code=E1', 'a code review', '/x?q=token'])('leaves %s alone', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it('takes other names when given them, `code` still matched whole only', () => {
    const redactor = new TextRedactor({ secretNames: ['pin'] });
    expect(redactor.text('/x?pin=1234&card_pin=5678&password=p&code=c&postcode=1')).toBe(
      `/x?pin=${REDACTED}&card_pin=${REDACTED}&password=p&code=${REDACTED}&postcode=1`,
    );
  });
});

describe('escapeControlCharacters', () => {
  it.each([
    ['line\nbreak\r', 'line\\x0abreak\\x0d'],
    ['\u001b[31mred\u001b[0m', '\\x1b[31mred\\x1b[0m'],
    ['tab\there, del\u007f', 'tab\\x09here, del\\x7f'],
    ['C1: \u0085 \u009b31m', 'C1: \\x85 \\x9b31m'],
    ['bidi: \u202eevil\u202c \u2066iso\u2069 \u200f\u061c', 'bidi: \\u202eevil\\u202c \\u2066iso\\u2069 \\u200f\\u061c'],
    ['separators: \u2028\u2029', 'separators: \\u2028\\u2029'],
  ])('escapes %j', (input, expected) => {
    expect(escapeControlCharacters(input)).toBe(expected);
  });

  it('leaves printable text alone, accents and emoji included', () => {
    const text = 'Grüße, 東京 🙂 "quoted" \\ back';
    expect(escapeControlCharacters(text)).toBe(text);
  });

  it('hides secrets and escapes in one call for log lines', () => {
    expect(logSafeText('GET /x?token=t1 \u202e')).toBe(`GET /x?token=${REDACTED} \\u202e`);
  });
});
