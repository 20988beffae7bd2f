/** Properties over arbitrary input: encodings that hold for any text, negotiation that never fails. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Request } from '@switchboard/http-kernel';
import { debugExceptionHeaders, encodeRfc3986, flattenError, HtmlErrorRenderer, negotiateRenderer, type Negotiable } from '../src/index.js';

const reference = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

describe('properties', () => {
  it("the header encoding equals encodeURIComponent + !'()* for any well-formed text", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(encodeRfc3986(Buffer.from(text, 'utf8'))).toBe(reference(text));
      }),
    );
  });

  it('debug headers are always safe header values, whatever the message', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), (message) => {
        const headers = debugExceptionHeaders(flattenError(new Error(message)));
        for (const value of Object.values(headers)) expect(value).toMatch(/^[A-Za-z0-9\-._~%:/]*$/);
        expect(headers['x-debug-exception']!.length).toBeLessThanOrEqual(3 * 2000);
      }),
    );
  });

  it('negotiation never throws and always picks one of the offered formats', () => {
    const formats: readonly [Negotiable, ...Negotiable[]] = [
      { accepts: ['text/html'] },
      { accepts: ['application/problem+json', 'application/json'] },
      { accepts: ['text/plain'] },
    ];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc
            .array(fc.constantFrom('text/html', '*/*', 'application/json', ';q=0.3', ',', ';', 'q=', 'text/*', ' ', '='))
            .map((parts) => parts.join('')),
        ),
        (accept) => {
          expect(formats).toContain(negotiateRenderer(accept, formats));
        },
      ),
    );
  });

  it('the debug page holds any message only escaped', () => {
    const renderer = new HtmlErrorRenderer({ debug: true });
    const request = Request.fromUrl('http://localhost/');
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 100 }).map((s) => `<b id="m">${s}`),
        (message) => {
          const body = renderer.render(flattenError(new Error(message)), request).body;
          expect(body).not.toContain('<b id="m">');
          expect(body).toContain('&lt;b id=&quot;m&quot;&gt;');
        },
      ),
    );
  });
});
