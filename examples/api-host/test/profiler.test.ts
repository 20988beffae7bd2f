/**
 * The profiler end to end on the example host (issue 6 "done when"): the debug header table of docs/profiler.md,
 * following x-debug-token-link, /_profiler/latest by client IP, the failed main request's events,
 * and no profiler at all with debug off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSpecNotFound, ROBOTS_HEADERS } from './support/spec-not-found.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

const REFERER = ROBOTS_HEADERS.referer;

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

describe('profiler on the example host, debug mode', () => {
  let host: StartedHost;
  let base: string;

  beforeAll(async () => {
    host = await startHostInProcess({ APP_DEBUG: '1' });
    base = host.running.url;
  });
  afterAll(() => host.stop());

  /** Profiles are saved at kernel.terminate, after the response went out. */
  async function profilePage(path: string): Promise<Answer> {
    let page = await get(`${base}${path}`);
    for (let i = 0; i < 100 && page.status === 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      page = await get(`${base}${path}`);
    }
    return page;
  }

  it("sends Server-Timing with the kernel's phases, the total naming the profile x-debug-token-link opens", async () => {
    const response = await get(`${base}/robots.txt`, { accept: 'application/json' });
    expect(response.status).toBe(404);
    const timing = response.headers.get('server-timing')!;
    expect(timing.split(', ').map((entry) => entry.split(';')[0])).toEqual(['request', 'error', 'response', 'total']);
    expect(timing).toMatch(new RegExp(`total;dur=\\d+\\.\\d;desc="profile ${response.headers.get('x-debug-token')}"$`));
  });

  it('answers GET /robots.txt with the complete header table of docs/profiler.md', async () => {
    const response = await get(`${base}/robots.txt`, { referer: REFERER, accept: 'text/html', 'user-agent': 'e2e' });
    const message = `No route found for "GET ${base}/robots.txt" (from "${REFERER}")`;
    expectSpecNotFound(
      { status: response.status, headers: Object.fromEntries(response.headers), body: response.body },
      `${base}/robots.txt`,
    );
    expect(response.headers.get('x-debug-exception-file')).toMatch(/^%2F.+router-listener\.ts:\d+$/);
    const token = response.headers.get('x-debug-token')!;
    const previous = response.headers.get('x-previous-debug-token')!;
    expect(token).toMatch(/^[0-9a-f]{6}$/);
    expect(previous).toMatch(/^[0-9a-f]{6}$/);

    // Following the link: the error sub-request's profile, exception panel, with the cause chain.
    const page = await profilePage(`/_profiler/${token}?panel=exception&type=request`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(page.body).toContain(message.replaceAll('"', '&quot;'));
    expect(page.body).toContain('No routes found for &quot;/robots.txt/&quot;.');
    expect(page.body).toContain('Cause 1');
    expect(page.body).toContain(`href="/_profiler/${previous}"`);

    // The failed main request: its events panel names the router listener that threw and the error listener.
    const main = await profilePage(`/_profiler/${previous}?panel=events`);
    expect(main.status).toBe(200);
    expect(main.body).toMatch(/<h3>kernel\.request <span class="tag">main request<\/span>/);
    expect(main.body).toMatch(
      /<td class="mono">32<\/td><td class="mono">RouterListener\.onKernelRequest<\/td><td>[^<]+<\/td><td><span class="threw">threw<\/span>/,
    );
    expect(main.body).toMatch(/<h3>kernel\.exception <span class="tag">main request<\/span>/);
    expect(main.body).toContain('ErrorListener.onKernelException');
    expect(main.body).toContain('CorsListener');

    // Its logger panel has the ERROR on the request channel.
    const logs = await profilePage(`/_profiler/${previous}?panel=logger`);
    expect(logs.body).toMatch(
      /<span class="tag ERROR">ERROR<\/span><\/td>\s*<td>request<\/td>\s*<td><pre>Uncaught Error NotFoundHttpError/,
    );
  });

  it('answers /_profiler/latest?ip=127.0.0.1&panel=exception&type=request with the newest profile of that client', async () => {
    const response = await get(`${base}/robots.txt`, { referer: REFERER });
    const previous = response.headers.get('x-previous-debug-token')!;
    await profilePage(`/_profiler/${previous}`);
    const latest = await get(`${base}/_profiler/latest?ip=127.0.0.1&panel=exception&type=request`);
    expect(latest.status).toBe(200);
    expect(latest.body).toContain(`Token <b class="mono">${previous}</b>`);
    expect(latest.body).toContain('<h2>Exception</h2>');
    expect(latest.headers.get('x-debug-token')).toBeNull();
  });

  it('shows the firewall in the security panel and never the bearer token it refused', async () => {
    const bearer = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtYWxsb3J5In0.Zm9yZ2VkLXNpZ25hdHVyZQ';
    const response = await get(`${base}/api/me`, { authorization: `Bearer ${bearer}`, accept: 'application/json' });
    expect(response.status).toBe(401);
    // The firewall answers with its own 401 (no error sub-request): one profile.
    expect(response.headers.get('x-previous-debug-token')).toBeNull();
    const previous = response.headers.get('x-debug-token')!;
    const security = await profilePage(`/_profiler/${previous}?panel=security`);
    expect(security.body).toContain('<tr><th>Firewall</th><td>api</td></tr>');
    const pages = [security.body];
    // Each page must exist: a 404 page would pass the checks below without showing anything.
    for (const query of ['panel=request', 'panel=logger', 'panel=events', 'format=json']) {
      const page = await get(`${base}/_profiler/${previous}?${query}`);
      expect(page.status, query).toBe(200);
      pages.push(page.body);
    }
    expect(pages.join('\n')).not.toContain(bearer);
    expect(pages.join('\n')).not.toContain('Zm9yZ2VkLXNpZ25hdHVyZQ');
  });
});

describe('example host with debug off', () => {
  let host: StartedHost;
  let base: string;

  beforeAll(async () => {
    host = await startHostInProcess({ APP_DEBUG: '0' });
    base = host.running.url;
  });
  afterAll(() => host.stop());

  it('sends no x-debug-* header and has no /_profiler routes', async () => {
    const response = await get(`${base}/robots.txt`, { referer: REFERER });
    expect(response.status).toBe(404);
    expect([...response.headers.keys()].filter((name) => name.startsWith('x-debug'))).toEqual([]);
    expect(response.headers.get('x-previous-debug-token')).toBeNull();
    expect(response.headers.get('server-timing')).toBeNull();
    for (const path of ['/_profiler/', '/_profiler/latest', '/_profiler/abcdef']) {
      const page = await get(`${base}${path}`);
      expect(page.status, path).toBe(404);
      expect(page.body, path).toContain('404');
      expect(page.headers.get('x-debug-token'), path).toBeNull();
    }
  });
});
