import { randomBytes } from 'node:crypto';
import { CookieSealer, CookieSigner } from '@switchboard/http-kernel/cookies';
import { EventDispatcher, HttpKernel, JsonResponse, Response, type KernelEventMap, type Request } from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, type TestClient } from '../src/index.js';

const signer = new CookieSigner([randomBytes(32)]);
const sealer = new CookieSealer([randomBytes(32)]);
const NOTE = 'a; b=c, "quoted" é €';

/** Sets every kind of cookie the kernel writes, and reads them all back from the request. */
function cookieApp(): HttpKernel {
  const routes = new RouteCollection()
    .add('set', '/set', {
      controller: () => {
        const response = new Response('', 204);
        response.cookies
          .set('plain', 'one')
          .set('note', NOTE)
          .set('signed', signer.sign('signed', 'user-7'))
          .set('sealed', sealer.seal('sealed', 'family-1:secret'))
          .set('__Host-id', 'h1', { sameSite: 'strict' })
          .set('__Secure-scoped', 's1', { path: '/read' })
          .set('embed', 'e1', { partitioned: true, sameSite: 'none' })
          .set('lasting', 'l1', { maxAge: 3600 });
        return response;
      },
    })
    .add('drop', '/drop', {
      controller: () => {
        const response = new Response('', 204);
        response.cookies.delete('plain').delete('__Secure-scoped', { path: '/read' });
        return response;
      },
    })
    .add('read', '/read', {
      controller: (request: Request) =>
        new JsonResponse({
          ...request.cookies.all(),
          signed: signer.verify('signed', request.cookies.get('signed')),
          sealed: sealer.open('sealed', request.cookies.get('sealed')),
        }),
    });
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.addSubscriber(new RouterListener(new Router(routes)));
  return new HttpKernel({ dispatcher });
}

describe('the test client keeps what response.cookies sets, over a socket', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(cookieApp(), { baseUrl: 'http://127.0.0.1' }).socket();
  });
  afterAll(() => client.close());

  it('sends back every cookie, decoded, signed and sealed values intact (Secure on loopback, as browsers do)', async () => {
    expect((await client.get('/set')).status).toBe(204);
    const read = (await client.get('/read')).json<Record<string, string>>();
    expect(read).toEqual({
      plain: 'one',
      note: NOTE,
      signed: 'user-7',
      sealed: 'family-1:secret',
      '__Host-id': 'h1',
      '__Secure-scoped': 's1',
      embed: 'e1',
      lasting: 'l1',
    });
    expect(client.cookies.all().find((cookie) => cookie.name === '__Host-id')).toMatchObject({
      secure: true,
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
    });
  });

  it('forgets deleted cookies', async () => {
    await client.get('/set');
    await client.get('/drop');
    const read = (await client.get('/read')).json<Record<string, string>>();
    expect(read['plain']).toBeUndefined();
    expect(read['__Secure-scoped']).toBeUndefined();
    expect(read['note']).toBe(NOTE);
  });

  it('a value changed by the client fails its signature or seal', async () => {
    await client.get('/set');
    client.cookies.set('signed', signer.sign('signed', 'user-7').replace('user-7', 'user-1'), new URL('http://127.0.0.1'));
    client.cookies.set('sealed', sealer.seal('other', 'x'), new URL('http://127.0.0.1'));
    const read = (await client.get('/read')).json<Record<string, string | null>>();
    expect(read['signed']).toBeNull();
    expect(read['sealed']).toBeNull();
  });
});
