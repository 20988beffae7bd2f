import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { NotFoundHttpError, Request, Response } from '@switchboard/http-kernel';
import { errorKernel } from './support/error-kernel.js';

describe('interleaved requests', () => {
  it('each error response carries its own error, and CSP removal reaches only error responses', async () => {
    const app = errorKernel((d) => {
      // Async listeners at every step so the requests interleave.
      d.on(
        'kernel.request',
        async (event) => {
          await tick();
          if (event.request.attributes.has('_controller')) return;
          const id = event.request.query.get('id')!;
          if (Number(id) % 2 === 0) throw new NotFoundHttpError(`missing ${id}`);
          event.request.attributes.set('_controller', () => new Response(`ok ${id}`));
        },
        32,
      );
      d.on(
        'kernel.response',
        async (event) => {
          await tick();
          event.response.headers.set('content-security-policy', "default-src 'self'");
        },
        0,
      );
    });
    const ids = Array.from({ length: 60 }, (_, i) => i);
    const responses = await Promise.all(ids.map((id) => app.kernel.handle(Request.fromUrl(`http://localhost/x?id=${id}`))));
    responses.forEach((response, id) => {
      if (id % 2 === 0) {
        expect(response.status).toBe(404);
        expect(response.headers.get('x-debug-exception')).toBe(`missing%20${id}`);
        expect(response.headers.has('content-security-policy')).toBe(false);
      } else {
        expect(response.status).toBe(200);
        expect(response.body).toBe(`ok ${id}`);
        expect(response.headers.get('content-security-policy')).toBe("default-src 'self'");
      }
    });
    const logged = app.logger.records.map((r) => /"missing (\d+)"/.exec(r.message)?.[1]).map(Number);
    expect(logged.sort((a, b) => a - b)).toEqual(ids.filter((id) => id % 2 === 0));
  });
});
