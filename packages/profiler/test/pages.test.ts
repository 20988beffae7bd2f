import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineController, Response, type Request } from '@switchboard/http-kernel';
import { PROFILER_CSP } from '../src/index.js';
import { CountingStorage } from './support/counting-storage.js';
import { serveKernel, type ServedKernel } from '../../../test/kit/index.js';
import { profiledKernel } from './support/profiled-kernel.js';
import { rawGet } from '../../../test/kit/raw-http.js';

const SECRET = 'tr0ub4dor-passphrase-of-the-signing-key';
const BEARER = 'Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl';

const storage = new CountingStorage();
const app = profiledKernel(
  {
    '/hello': () => new Response('hi', 200, { 'content-type': 'text/plain' }),
    '/leaky': defineController(['request'], (request: Request): never => {
      throw new Error(`cannot open key with passphrase ${SECRET} for ${request.headers.get('authorization')}`);
    }),
  },
  { storage, secrets: [SECRET] },
);
let served: ServedKernel;

beforeAll(async () => {
  served = await serveKernel(app.kernel);
});
afterAll(async () => {
  await served?.close();
});

/** Profiles are saved after the response went out: wait until the storage has them. */
async function saved(token: string): Promise<void> {
  for (let i = 0; i < 200 && !storage.has(token); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(storage.has(token)).toBe(true);
}

async function robots() {
  const response = await fetch(`${served.origin}/robots.txt`, { headers: { referer: 'http://127.0.0.1/start' } });
  await response.text();
  const token = response.headers.get('x-debug-token')!;
  const previous = response.headers.get('x-previous-debug-token')!;
  await saved(token);
  await saved(previous);
  return { response, token, previous };
}

describe('the /_profiler pages', () => {
  it('follows x-debug-token-link with panel=exception&type=request to a page with the 404 message and its cause chain', async () => {
    const { response, token, previous } = await robots();
    const link = response.headers.get('x-debug-token-link')!;
    expect(link).toBe(`${served.origin}/_profiler/${token}`);
    const page = await fetch(`${link}?panel=exception&type=request`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(page.headers.get('content-security-policy')).toBe(PROFILER_CSP);
    expect(page.headers.get('x-debug-token')).toBeNull();
    const html = await page.text();
    expect(html).toContain(`No route found for &quot;GET ${served.origin}/robots.txt&quot; (from &quot;http://127.0.0.1/start&quot;)`);
    expect(html).toContain('Cause 1');
    expect(html).toContain('No routes found for &quot;/robots.txt/&quot;.');
    expect(html).toContain('NotFoundHttpError');
    // Source lines of the throwing code, read when the page was asked for.
    expect(html).toMatch(/class="hl"><span class="ln">\d+<\/span>\s*return new NotFoundHttpError\(message/);
    // One click to the failed main request.
    expect(html).toContain(`href="/_profiler/${previous}"`);
    expect(html).toContain('Sub-request of');
  });

  it('shows the failed main request (x-previous-debug-token) with its events panel', async () => {
    const { token, previous } = await robots();
    const page = await fetch(`${served.origin}/_profiler/${previous}?panel=events`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('kernel.request');
    expect(html).toMatch(/RouterListener\.onKernelRequest<\/td><td>[^<]+<\/td><td><span class="threw">threw<\/span>/);
    expect(html).toContain('kernel.exception');
    expect(html).toContain('ErrorListener.onKernelException');
    expect(html).toContain(`Forwarded to <a href="/_profiler/${token}">`);
    // Default panel of a profile with an exception is the exception panel.
    const home = await (await fetch(`${served.origin}/_profiler/${previous}`)).text();
    expect(home).toContain('<h2>Exception</h2>');
  });

  it('answers /_profiler/latest?ip=…&panel=exception&type=request with the newest profile of that client', async () => {
    const { previous } = await robots();
    const page = await fetch(`${served.origin}/_profiler/latest?ip=127.0.0.1&panel=exception&type=request`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Token <b class="mono">${previous}</b>`);
    expect(html).toContain('<h2>Exception</h2>');
    const otherClient = await fetch(`${served.origin}/_profiler/latest?ip=10.9.8.7&type=request`);
    expect(otherClient.status).toBe(404);
    expect(await otherClient.text()).toContain('No profile of type <code>request</code> from 10.9.8.7 is stored.');
    const otherType = await fetch(`${served.origin}/_profiler/latest?ip=127.0.0.1&type=command`);
    expect(otherType.status).toBe(404);
  });

  it('answers an unknown token with a 404 page that says so and links the newest profiles', async () => {
    const { previous } = await robots();
    const page = await fetch(`${served.origin}/_profiler/abc123`);
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain('Token <code>abc123</code> is unknown');
    expect(html).toContain(`href="/_profiler/${previous}"`);
  });

  it('replays routing for the router panel when it is opened: each route, in order, and why it did not match', async () => {
    const { previous } = await robots();
    const html = await (await fetch(`${served.origin}/_profiler/${previous}?panel=router`)).text();
    expect(html).toContain('none — no route matched GET /robots.txt');
    expect(html).toMatch(
      /<td class="mono">\/hello<\/td><td class="mono">\/hello<\/td><td><span class="tag none">no<\/span><\/td><td>Path &quot;\/hello&quot; does not match.<\/td>/,
    );
    expect(html.indexOf('>/hello<')).toBeLessThan(html.indexOf('>/leaky<'));
    expect(html).toContain('_profiler_home');
  });

  it('answers an unknown panel with 404', async () => {
    const { token } = await robots();
    const page = await fetch(`${served.origin}/_profiler/${token}?panel=doctrine`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain(`Panel "doctrine" is not available for token "${token}".`);
  });

  it('rejects hostile tokens before storage is touched', async () => {
    const hostile = [
      '/_profiler/..%2F..%2Fetc%2Fpasswd',
      '/_profiler/%2e%2e',
      '/_profiler/..',
      `/_profiler/${'a'.repeat(5000)}`,
      '/_profiler/zzzzzz',
      '/_profiler/ABCDEF',
      '/_profiler/abc12',
      '/_profiler/abc1234',
      '/_profiler/abc%00de',
      '/_profiler/latest?ip=127.0.0.1%27%3Bdrop',
      '/_profiler/latest?ip=..%2F..%2Fetc',
      '/_profiler/latest?ip=999.1.1.1',
      '/_profiler/latest?type=%3Cscript%3E',
    ];
    for (const path of hostile) {
      storage.reads = 0;
      storage.finds = 0;
      const response = await rawGet(served.origin, path);
      expect([400, 404], path).toContain(response.status);
      expect(response.body, path).not.toContain('root:');
      expect(response.body, path).not.toContain('<script>');
      expect(storage.reads + storage.finds, path).toBe(0);
    }
    expect((await rawGet(served.origin, '/_profiler/latest?ip=127.0.0.1%27%3Bdrop')).status).toBe(400);
    expect((await rawGet(served.origin, '/_profiler/zzzzzz')).body).toContain('Not a profiler token');
  });

  it('never shows the Authorization header value or a configured secret', async () => {
    const response = await fetch(`${served.origin}/leaky`, { headers: { authorization: BEARER, accept: 'text/html' } });
    expect(response.status).toBe(500);
    const token = response.headers.get('x-debug-token')!;
    const previous = response.headers.get('x-previous-debug-token')!;
    await saved(previous);
    const bodies: string[] = [await response.text()];
    for (const profile of [token, previous]) {
      for (const panel of ['request', 'exception', 'events', 'router', 'logger', 'time', 'memory']) {
        const page = await fetch(`${served.origin}/_profiler/${profile}?panel=${panel}`);
        expect(page.status).toBe(200);
        bodies.push(await page.text());
      }
      bodies.push(await (await fetch(`${served.origin}/_profiler/${profile}?format=json`)).text());
    }
    bodies.push(await (await fetch(`${served.origin}/_profiler/`)).text());
    const everything = bodies.slice(1).join('\n');
    expect(everything).toContain('[redacted]');
    expect(everything).toContain('cannot open key with passphrase [redacted] for [redacted]');
    for (const secret of [SECRET, 'eyJhbGciOiJFUzI1NiJ9', 'c2lnbmF0dXJl']) expect(everything).not.toContain(secret);
  });

  it('gives a JSON view with ?format=json or Accept: application/json', async () => {
    const { token, previous } = await robots();
    const viaQuery = await fetch(`${served.origin}/_profiler/${token}?format=json`);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.headers.get('content-type')).toBe('application/json');
    const data = (await viaQuery.json()) as { token: string; parent: { token: string }; collectors: Record<string, unknown> };
    expect(data.token).toBe(token);
    expect(data.parent.token).toBe(previous);
    expect(Object.keys(data.collectors)).toEqual(
      expect.arrayContaining(['request', 'exception', 'events', 'router', 'logger', 'time', 'memory']),
    );
    const viaAccept = await fetch(`${served.origin}/_profiler/${previous}`, { headers: { accept: 'application/json' } });
    expect(((await viaAccept.json()) as { children: Array<{ token: string }> }).children.map((c) => c.token)).toEqual([token]);
    const unknown = await fetch(`${served.origin}/_profiler/abc123`, { headers: { accept: 'application/json' } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { title: string }).title).toBe('Unknown token');
  });

  it('lists the newest profiles on /_profiler/ and searches them by ip, method, url and status', async () => {
    const hello = await fetch(`${served.origin}/hello`);
    await hello.text();
    await saved(hello.headers.get('x-debug-token')!);
    await robots();
    const all = await fetch(`${served.origin}/_profiler/`);
    expect(all.status).toBe(200);
    const html = await all.text();
    expect(html).toContain('<form class="search"');
    expect(html.indexOf('/robots.txt')).toBeLessThan(html.indexOf('/hello'));
    const search = (query: string) =>
      fetch(`${served.origin}/_profiler/?format=json&${query}`).then(
        (r) => r.json() as Promise<{ profiles: Array<{ url: string; statusCode: number; ip: string; method: string }> }>,
      );
    const byStatus = await search('status=200&url=%2Fhello');
    expect(byStatus.profiles.length).toBeGreaterThan(0);
    expect(byStatus.profiles.every((p) => p.statusCode === 200 && p.url.includes('/hello'))).toBe(true);
    expect((await search('ip=10.0.0.9')).profiles).toEqual([]);
    expect((await search('method=post')).profiles).toEqual([]);
    expect((await search('ip=127.0.0.1&limit=1')).profiles).toHaveLength(1);
    expect((await fetch(`${served.origin}/_profiler/?status=abc`)).status).toBe(400);
  });
});
