import { describe, expect, it } from 'vitest';
import { NotFoundHttpError, Request, type Response } from '@switchboard/http-kernel';
import { bodyText, errorKernel } from './support/error-kernel.js';

const PAYLOADS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', 'line1\r\nx-injected: yes'];
const HOSTILE = PAYLOADS.join(' ');

/** The router's message shape, built from a hostile path and referer. */
async function hostileErrorPage(accept: string): Promise<Response> {
  const app = errorKernel((d) =>
    d.on(
      'kernel.request',
      (event) => {
        if (!event.isMainRequest()) return;
        const referer = event.request.headers.get('referer');
        throw new NotFoundHttpError(`No route found for "GET ${event.request.url}" (from "${referer}") ${HOSTILE}`);
      },
      32,
    ),
  );
  return app.handle(
    Request.fromUrl(`http://localhost/${encodeURIComponent('<script>alert(1)</script>')}`, {
      headers: { referer: `https://evil.example/${HOSTILE}`, accept, 'user-agent': HOSTILE },
    }),
  );
}

function headerValues(response: Response): string[] {
  return [...response.headers].flatMap(([name, values]) => [name, ...values]);
}

describe('debug error page with hostile message and referer', () => {
  it('holds the payloads in the HTML body only escaped', async () => {
    const response = await hostileErrorPage('text/html');
    const body = bodyText(response);
    expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    for (const payload of PAYLOADS.slice(0, 2)) expect(body).not.toContain(payload);
    expect(body).not.toMatch(/<script/i);
    expect(body).not.toMatch(/<img/i);
    expect(body).not.toMatch(/onerror=alert\(1\)>/);
    // The escaped forms are there: in the title, the message, the request table.
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(body.match(/&lt;script&gt;alert\(1\)&lt;\/script&gt;/g)!.length).toBeGreaterThanOrEqual(4);
    // The only markup is ours: no attribute value opened by the payload.
    const tags = body.match(/<[a-z][^>]*>/gi) ?? [];
    expect(tags.every((tag) => !tag.includes('alert'))).toBe(true);
  });

  it('holds them in the headers only percent-encoded, CR and LF included', async () => {
    const response = await hostileErrorPage('text/html');
    const values = headerValues(response);
    for (const value of values) {
      expect(value).not.toMatch(/[\r\n<>"]/);
      expect(value).not.toContain('alert(1)');
    }
    expect(response.headers.has('x-injected')).toBe(false);
    const encoded = response.headers.get('x-debug-exception')!;
    expect(encoded).toContain('%3Cscript%3Ealert%281%29%3C%2Fscript%3E');
    expect(encoded).toContain('%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E');
    expect(encoded).toContain('line1%0D%0Ax-injected%3A%20yes');
    expect(decodeURIComponent(encoded)).toContain(HOSTILE);
  });

  it('keeps the payloads inert in the problem document and the text page', async () => {
    const json = await hostileErrorPage('application/json');
    expect(json.headers.get('content-type')).toBe('application/problem+json');
    expect((JSON.parse(bodyText(json)) as { detail: string }).detail).toContain(HOSTILE);
    const text = await hostileErrorPage('text/plain');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    for (const response of [json, text]) for (const value of headerValues(response)) expect(value).not.toMatch(/[\r\n<>"]/);
  });
});
