import { describe, expect, it } from 'vitest';
import { debugExceptionHeaders, encodeRfc3986, flattenError, MAX_DEBUG_MESSAGE_BYTES } from '../src/index.js';

const encode = (text: string) => encodeRfc3986(Buffer.from(text, 'utf8'));

describe('x-debug-exception encoding', () => {
  it("encodes RFC 3986 style: space as %20, !'()* and every reserved character encoded", () => {
    expect(encode('No route found for "GET http://localhost/robots.txt"')).toBe(
      'No%20route%20found%20for%20%22GET%20http%3A%2F%2Flocalhost%2Frobots.txt%22',
    );
    expect(encode("!'()*")).toBe('%21%27%28%29%2A');
    expect(encode('a-b_c.d~e+f')).toBe('a-b_c.d~e%2Bf');
    expect(encode('\r\n<é>')).toBe('%0D%0A%3C%C3%A9%3E');
  });

  it("agrees with encodeURIComponent plus !'()* on arbitrary text", () => {
    const samples = ['', 'plain', 'über straße', '😀 emoji', '%41 already encoded', '\u0000\u007f', 'a/b?c=d&e#f'];
    for (const sample of samples) {
      const reference = encodeURIComponent(sample).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
      expect(encode(sample)).toBe(reference);
    }
  });

  it('cuts the message to 2000 bytes before encoding, even inside a UTF-8 sequence', () => {
    const long = `${'a'.repeat(1999)}é and more`;
    const header = debugExceptionHeaders(flattenError(new Error(long)))['x-debug-exception']!;
    expect(header).toBe(`${'a'.repeat(1999)}%C3`);
    expect(MAX_DEBUG_MESSAGE_BYTES).toBe(2000);
  });

  it('writes the file as encoded path, literal colon, line', () => {
    const headers = debugExceptionHeaders({ ...flattenError(new Error('x')), file: "/srv/my app/(x)/a'b.ts", line: 42 });
    expect(headers['x-debug-exception-file']).toBe('%2Fsrv%2Fmy%20app%2F%28x%29%2Fa%27b.ts:42');
    expect(debugExceptionHeaders(flattenError('no stack'))).toEqual({ 'x-debug-exception': 'no%20stack' });
  });
});
