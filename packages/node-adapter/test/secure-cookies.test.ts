/**
 * A cookie set without `secure` is `Secure` when the request is: HTTPS, or HTTPS at a trusted
 * proxy (`X-Forwarded-Proto`). Checked on the bytes the adapter writes, over real sockets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Response } from '@switchboard/http-kernel';
import { serve, type RunningServer, type ServeOptions } from '../src/index.js';
import { createTestCertificate } from '../../../test/kit/services/certificate.js';
import { rawExchange, statusOfRaw } from '../../../test/kit/raw-http.js';
import { handlerRoutes, testKernel } from '../../../test/kit/index.js';

/** What `kernel.response` listeners saw, per request path. */
const seenByListeners = new Map<string, string[]>();

function cookieKernel() {
  return testKernel({
    routes: handlerRoutes({
      '/set': () => {
        const response = new Response('', 204);
        response.cookies.set('theme', 'dark').set('plain', '1', { secure: false }).set('__Host-id', 'h', { sameSite: 'strict' });
        return response;
      },
      '/none': () => new Response('', 204),
    }),
    setup: (dispatcher) => {
      dispatcher.on(
        'kernel.response',
        (event) => void seenByListeners.set(event.request.rawPath, event.response.headers.getAll('set-cookie')),
        -100,
      );
      // A listener that puts a response of its own in place, with a cookie: it is prepared too.
      dispatcher.on('kernel.response', (event) => {
        if (event.request.query.get('replace') !== '1') return;
        const replaced = new Response('', 204);
        replaced.cookies.set('swapped', '1');
        event.response = replaced;
      });
    },
  });
}

/** The `Set-Cookie` lines of a raw HTTP/1.1 answer. */
function setCookieLines(raw: string): string[] {
  return [...raw.matchAll(/^set-cookie: (.*)\r$/gim)].map((match) => match[1]!);
}

async function get(server: RunningServer, path: string, headers: string[] = [], secure = false): Promise<string[]> {
  const raw = await rawExchange(
    server.port,
    [`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`],
    {
      secure,
    },
  );
  expect(statusOfRaw(raw)).toBe(204);
  return setCookieLines(raw);
}

describe('a cookie set without secure follows the request', () => {
  const servers: RunningServer[] = [];
  const start = async (options: Omit<ServeOptions, 'handleSignals'>) => {
    const server = await serve(cookieKernel().kernel, { handleSignals: false, ...options });
    servers.push(server);
    return server;
  };
  let plain: RunningServer;
  let behindProxy: RunningServer;
  let overTls: RunningServer;

  beforeAll(async () => {
    plain = await start({});
    behindProxy = await start({ trustedProxies: ['loopback'] });
    overTls = await start({ tls: createTestCertificate() });
  });
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('is not Secure over plain HTTP on 127.0.0.1; secure: false and the __Host- prefix are kept as they say', async () => {
    expect(await get(plain, '/set')).toEqual([
      'plain=1; Path=/; HttpOnly; SameSite=Lax',
      '__Host-id=h; Path=/; HttpOnly; Secure; SameSite=Strict',
      'theme=dark; Path=/; HttpOnly; SameSite=Lax',
    ]);
    // An untrusted client's X-Forwarded-Proto changes nothing.
    expect(await get(plain, '/set', ['X-Forwarded-Proto: https'])).toContain('theme=dark; Path=/; HttpOnly; SameSite=Lax');
  });

  it('is Secure over HTTPS', async () => {
    expect(await get(overTls, '/set', [], true)).toEqual([
      'plain=1; Path=/; HttpOnly; SameSite=Lax',
      '__Host-id=h; Path=/; HttpOnly; Secure; SameSite=Strict',
      'theme=dark; Path=/; HttpOnly; Secure; SameSite=Lax',
    ]);
  });

  it("is Secure behind a trusted proxy's X-Forwarded-Proto: https, not without it", async () => {
    expect(await get(behindProxy, '/set', ['X-Forwarded-Proto: https'])).toContain('theme=dark; Path=/; HttpOnly; Secure; SameSite=Lax');
    expect(await get(behindProxy, '/set')).toContain('theme=dark; Path=/; HttpOnly; SameSite=Lax');
  });

  it('is written before kernel.response, so its listeners see the final lines', async () => {
    const written = await get(overTls, '/set', [], true);
    expect(seenByListeners.get('/set')).toEqual(written);
    expect(await get(plain, '/none')).toEqual([]);
    expect(seenByListeners.get('/none')).toEqual([]);
  });

  it('is written on a response a kernel.response listener put in place', async () => {
    expect(await get(overTls, '/set?replace=1', [], true)).toEqual(['swapped=1; Path=/; HttpOnly; Secure; SameSite=Lax']);
    expect(await get(plain, '/set?replace=1')).toEqual(['swapped=1; Path=/; HttpOnly; SameSite=Lax']);
  });
});
