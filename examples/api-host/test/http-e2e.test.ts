import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCertificate } from '../../../test/kit/services/certificate.js';
import { curl, curlAvailable, http2Request, https1Request, type SimpleResponse } from './support/clients.js';
import { expectSpecNotFound, ROBOTS_HEADERS } from './support/spec-not-found.js';
import { startHostInProcess, startHostProcess, type StartedHost } from './support/start-host.js';

describe('example host over HTTP/1.1 (fetch, curl)', () => {
  let host: StartedHost;
  let base: string;

  beforeAll(async () => {
    host = await startHostInProcess();
    base = host.running.url;
  });
  afterAll(() => host.stop());

  const get = async (path: string, init: RequestInit = {}): Promise<SimpleResponse> => {
    const response = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  };

  it('answers GET /robots.txt with the full 404: message, headers, no cookie', async () => {
    // fetch decodes content-encoding itself and would refuse a forged accept-encoding: none is applied here anyway.
    expectSpecNotFound(await get('/robots.txt', { headers: ROBOTS_HEADERS }), `${base}/robots.txt`);
    const record = host.logger.records.find((r) => r.level === 'ERROR' && r.message.includes('/robots.txt'));
    expect(record?.channel).toBe('request');
  });

  it('answers HEAD with the same headers and no body', async () => {
    const getResponse = await get('/robots.txt', { headers: ROBOTS_HEADERS });
    const headResponse = await get('/robots.txt', { method: 'HEAD', headers: ROBOTS_HEADERS });
    expectSpecNotFound(headResponse, `${base}/robots.txt`, { head: true });
    // Hop-by-hop headers (connection, keep-alive) are Node's connection management, not the response's.
    const hopByHop = new Set(['connection', 'keep-alive']);
    const names = (r: SimpleResponse) =>
      Object.keys(r.headers)
        .filter((n) => !hopByHop.has(n))
        .sort();
    expect(names(headResponse)).toEqual(names(getResponse));
  });

  it('answers GET /health', async () => {
    const response = await get('/health');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: 'ok' });
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const response = await get('/health', { method: 'POST', headers: { accept: 'text/html' } });
    expect(response.status).toBe(405);
    expect(response.headers['allow']).toBe('GET');
    expect(decodeURIComponent(String(response.headers['x-debug-exception']))).toBe(
      `No route found for "POST ${base}/health": Method Not Allowed (Allow: GET)`,
    );
  });

  it('redirects a toggled trailing slash with 301, query kept', async () => {
    const response = await get('/health/?x=1');
    expect(response.status).toBe(301);
    expect(response.headers['location']).toBe(`${base}/health?x=1`);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it.runIf(curlAvailable)('answers curl with the full 404, and HEAD without a body', async () => {
    const headerArgs = Object.entries(ROBOTS_HEADERS).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
    expectSpecNotFound(await curl([...headerArgs, `${base}/robots.txt`]), `${base}/robots.txt`);
    expectSpecNotFound(await curl(['-I', ...headerArgs, `${base}/robots.txt`]), `${base}/robots.txt`, { head: true });
  });
});

describe('example host behind its public base URL', () => {
  let host: StartedHost;

  beforeAll(async () => {
    // The test reaches the host at 127.0.0.1, not through the public name, so that host is trusted too.
    host = await startHostInProcess({ APP_BASE_URL: 'https://v2.api.example.com', TRUSTED_HOSTS: 'v2.api.example.com,127.0.0.1' });
  });
  afterAll(() => host.stop());

  it('names the public URL in the message and redirects to it', async () => {
    const notFound = await fetch(`${host.running.url}/robots.txt`, { headers: ROBOTS_HEADERS });
    expectSpecNotFound(
      { status: notFound.status, headers: Object.fromEntries(notFound.headers), body: await notFound.text() },
      'https://v2.api.example.com/robots.txt',
    );
    const redirect = await fetch(`${host.running.url}/health/`, { redirect: 'manual' });
    expect(redirect.headers.get('location')).toBe('https://v2.api.example.com/health');
  });
});

describe('example host over HTTPS: HTTP/2 and HTTP/1.1 on one port', () => {
  let host: StartedHost;
  let base: string;

  beforeAll(async () => {
    host = await startHostInProcess({}, createTestCertificate());
    base = host.running.url;
  });
  afterAll(() => host.stop());

  it('answers the node:http2 client with the full 404', async () => {
    expectSpecNotFound(await http2Request(base, '/robots.txt', ROBOTS_HEADERS), `${base}/robots.txt`);
  });

  it('answers HEAD over HTTP/2 without a body', async () => {
    expectSpecNotFound(await http2Request(base, '/robots.txt', ROBOTS_HEADERS, 'HEAD'), `${base}/robots.txt`, { head: true });
  });

  it('answers an HTTPS HTTP/1.1 client with the full 404', async () => {
    expectSpecNotFound(await https1Request(`${base}/robots.txt`, ROBOTS_HEADERS), `${base}/robots.txt`);
  });

  it('answers 405 and 301 over HTTP/2', async () => {
    const notAllowed = await http2Request(base, '/health', { accept: 'application/json' }, 'DELETE');
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers['allow']).toBe('GET');
    const redirect = await http2Request(base, '/health/');
    expect(redirect.status).toBe(301);
    expect(redirect.headers['location']).toBe(`${base}/health`);
  });

  it.runIf(curlAvailable)('answers curl over HTTP/2 and over HTTP/1.1', async () => {
    const headerArgs = Object.entries(ROBOTS_HEADERS).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
    const overHttp2 = await curl(['-k', '--http2', ...headerArgs, `${base}/robots.txt`]);
    expectSpecNotFound(overHttp2, `${base}/robots.txt`);
    const overHttp1 = await curl(['-k', '--http1.1', ...headerArgs, `${base}/robots.txt`]);
    expectSpecNotFound(overHttp1, `${base}/robots.txt`);
  });
});

describe('example host as a process (what `pnpm start` runs)', () => {
  it('prints the startup line with debug mode, serves, and exits 0 on SIGTERM', async () => {
    const host = await startHostProcess({ APP_DEBUG: '1', API_HOST_CONFIG: '' });
    try {
      const url = await host.url;
      expect(host.output()).toMatch(/debug mode ON/);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      host.child.kill('SIGTERM');
      expect(await host.exited).toBe(0);
    } finally {
      host.child.kill('SIGKILL');
    }
  });

  it('says so when debug mode is off', async () => {
    const host = await startHostProcess({ APP_DEBUG: 'false', API_HOST_CONFIG: '' });
    try {
      await host.url;
      expect(host.output()).toMatch(/debug mode OFF/);
      host.child.kill('SIGTERM');
      expect(await host.exited).toBe(0);
    } finally {
      host.child.kill('SIGKILL');
    }
  });
});
