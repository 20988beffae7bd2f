import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventDispatcher, HttpKernel, JsonResponse, Request, type KernelEventMap } from '@switchboard/http-kernel';
import { CorsListener, LOOPBACK_ORIGIN } from '../src/index.js';

/** The whole listener, in process: for any Origin, permission is granted exactly when the rule accepts it. */
function kernel(): HttpKernel {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.addSubscriber(new CorsListener());
  const ok = () => new JsonResponse({ ok: true });
  dispatcher.on('kernel.request', (event) => void event.request.attributes.set('_controller', ok), 32);
  return new HttpKernel({ dispatcher });
}

const origins = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('http', 'https', 'HTTP', 'ftp', 'ws', ''),
      fc.constantFrom('://', ':/', '//'),
      fc.constantFrom('localhost', '127.0.0.1', 'LOCALHOST', 'localhost.', 'evil.com', '[::1]', '127.0.0.2', 'localhost@evil.com'),
      fc.constantFrom('', ':', ':80', ':8080', ':8o', '/', '/path', '.evil.com', ', http://evil.com'),
    )
    .map((parts) => parts.join('')),
  fc.string({ maxLength: 30 }).filter((value) => !/[\r\n\0]/.test(value) && value.trim() === value && value !== ''),
);

describe('CorsListener against the rule, for random origins', () => {
  const app = kernel();

  it('grants Access-Control-Allow-Origin (the exact origin) iff the anchored rule matches', async () => {
    await fc.assert(
      fc.asyncProperty(origins, fc.boolean(), async (origin, preflight) => {
        const request = Request.fromUrl('http://api.test:8000/api/items', {
          method: preflight ? 'OPTIONS' : 'GET',
          headers: preflight ? { origin, 'access-control-request-method': 'GET' } : { origin },
        });
        const response = await app.handle(request);
        const granted = response.headers.get('access-control-allow-origin');
        const expected = LOOPBACK_ORIGIN.test(origin) ? origin : undefined;
        expect(granted).toBe(expected);
        if (expected === undefined) expect(response.headers.names().filter((name) => name.startsWith('access-control-allow-'))).toEqual([]);
        expect(response.headers.get('vary')).toBe('Origin');
      }),
      { numRuns: 500 },
    );
  });
});
