import { describe, expect, it } from 'vitest';
import { createTestClient, MAX_REDIRECTS, TooManyRedirectsError } from '../src/index.js';
import { sampleApp, type Inspection } from './support/sample-app.js';

describe('redirects', () => {
  it('are not followed by default', async () => {
    const response = await createTestClient(sampleApp().kernel).get('/redirect/302');
    expect([response.status, response.headers.get('location'), response.redirects]).toEqual([302, '/inspect?from=302', []]);
  });

  it('follow the method rules of RFC 9110: 303 → GET, 301/302 turn POST into GET, 307/308 keep method and body', async () => {
    const client = createTestClient(sampleApp().kernel, { followRedirects: true });
    const cases: Array<[number, string, string, string | null]> = [
      [301, 'POST', 'GET', null],
      [302, 'POST', 'GET', null],
      [303, 'POST', 'GET', null],
      [303, 'PUT', 'GET', null],
      [302, 'PUT', 'PUT', 'payload'],
      [307, 'POST', 'POST', 'payload'],
      [308, 'PATCH', 'PATCH', 'payload'],
    ];
    for (const [status, method, expectedMethod, expectedBody] of cases) {
      const response = await client.request(method, `/redirect/${status}`, { body: 'payload', headers: { 'content-type': 'text/plain' } });
      const seen = response.json<Inspection>();
      expect([status, method, seen.method, seen.body, seen.headers['content-type'] ?? null]).toEqual([
        status,
        method,
        expectedMethod,
        expectedBody,
        expectedBody === null ? null : 'text/plain',
      ]);
      expect(response.redirects).toEqual([
        { status, from: `http://localhost/redirect/${status}`, to: `http://localhost/inspect?from=${status}` },
      ]);
      expect(response.url).toBe(`http://localhost/inspect?from=${status}`);
    }
    const head = await client.head('/redirect/303');
    expect(head.request?.method).toBe('HEAD');
  });

  it('follow the router’s trailing-slash redirect, per request too', async () => {
    const client = createTestClient(sampleApp().kernel);
    const response = await client.get('/list', { followRedirects: true });
    expect([response.status, response.url, response.redirects.map((step) => step.status)]).toEqual([200, 'http://localhost/list/', [301]]);
  });

  it('stop after 10 with an error that shows the chain', async () => {
    const client = createTestClient(sampleApp().kernel, { followRedirects: true });
    const failure = await client.get('/loop/0').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TooManyRedirectsError);
    expect((failure as TooManyRedirectsError).chain).toHaveLength(MAX_REDIRECTS + 1);
    expect((failure as Error).message).toBe(
      'More than 10 redirects, the last ones: 302 http://localhost/loop/8 -> http://localhost/loop/9, ' +
        '302 http://localhost/loop/9 -> http://localhost/loop/10, 302 http://localhost/loop/10 -> http://localhost/loop/11.',
    );
  });

  it('keep Authorization on the same origin only', async () => {
    const client = createTestClient(sampleApp().kernel, { followRedirects: true }).withBearer('t0k');
    const away = (await client.get('/away')).json<Inspection>();
    expect([away.host, away.headers['authorization']]).toEqual(['other.example', undefined]);
    const home = (await client.get('/redirect/302')).json<Inspection>();
    expect(home.headers['authorization']).toBe('Bearer t0k');
  });

  it('carry cookies set on the way', async () => {
    const client = createTestClient(sampleApp().kernel, { followRedirects: true });
    client.cookies.set('seen', 'yes', new URL(client.baseUrl));
    expect((await client.get('/redirect/302')).json<Inspection>().headers['cookie']).toBe('seen=yes');
  });
});
