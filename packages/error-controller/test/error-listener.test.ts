import { describe, expect, it } from 'vitest';
import {
  defineController,
  EventDispatcher,
  ExceptionEvent,
  HttpKernel,
  nullLogger,
  type KernelEventMap,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  Request,
  RequestType,
  Response,
  UnprocessableEntityHttpError,
} from '@switchboard/http-kernel';
import { ErrorListener } from '../src/index.js';
import { ERROR_PAGE_EVENTS } from '../../../test/kit/index.js';
import { bodyText, errorKernel } from './support/error-kernel.js';

/** A kernel.request listener standing in for the router: it throws what the test gives it. */
function throwingAtRequest(error: unknown) {
  return errorKernel((d) =>
    d.on(
      'kernel.request',
      (event) => {
        if (event.isMainRequest()) throw error;
      },
      32,
      { name: 'ThrowingRouter' },
    ),
  );
}

describe('ErrorListener', () => {
  it('answers a 404 through an error sub-request with the expected events, headers and log', async () => {
    const app = throwingAtRequest(new NotFoundHttpError('No route found for "GET http://localhost/robots.txt"'));
    const response = await app.handle(Request.fromUrl('http://localhost/robots.txt'));

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, private');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    expect(response.headers.get('date')).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(response.headers.get('x-debug-exception')).toBe('No%20route%20found%20for%20%22GET%20http%3A%2F%2Flocalhost%2Frobots.txt%22');
    expect(response.headers.get('x-debug-exception-file')).toMatch(/error-listener\.test\.ts:\d+$/);
    expect(response.headers.has('set-cookie')).toBe(false);

    expect(app.eventOrder()).toEqual(['main kernel.request', 'main kernel.exception', ...ERROR_PAGE_EVENTS]);
    const exception = app.traces.find((t) => t.eventName === 'kernel.exception')!;
    expect(exception.stoppedBy).toBe('ErrorListener.onKernelException');

    expect(app.logger.records).toHaveLength(1);
    const [record] = app.logger.records;
    expect(record).toMatchObject({ level: 'ERROR', channel: 'request' });
    expect(record!.message).toMatch(
      /^Uncaught Error NotFoundHttpError: "No route found for "GET http:\/\/localhost\/robots.txt"" at error-listener\.test\.ts line \d+$/,
    );
    expect(record!.context['err']).toBeInstanceOf(NotFoundHttpError);
  });

  it('registers its listeners at the documented priorities', () => {
    const { dispatcher } = errorKernel();
    const mine = (event: 'kernel.exception' | 'kernel.response') =>
      dispatcher
        .getListeners(event)
        .filter((l) => l.name.startsWith('ErrorListener'))
        .map((l) => [l.name, l.priority]);
    expect(mine('kernel.exception')).toEqual([
      ['ErrorListener.logKernelException', 0],
      ['ErrorListener.onKernelException', -128],
    ]);
    expect(mine('kernel.response')).toEqual([['ErrorListener.removeCspHeader', -128]]);
    expect(ErrorListener.SUB_REQUEST_PRIORITY).toBe(-128);
  });

  it('subscribes to kernel.response only in debug mode, the only mode where it acts', () => {
    const { dispatcher } = errorKernel(() => {}, { debug: false });
    expect(dispatcher.getListeners('kernel.response').filter((l) => l.name.startsWith('ErrorListener'))).toEqual([]);
    expect(dispatcher.getListeners('kernel.exception')).toHaveLength(2);
  });

  it('sends the Allow header of a 405 and logs it at ERROR', async () => {
    const app = throwingAtRequest(new MethodNotAllowedHttpError(['GET', 'POST'], 'Method Not Allowed (Allow: GET, POST)'));
    const response = await app.handle(Request.fromUrl('http://localhost/items', { method: 'DELETE' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(bodyText(response)).toContain('Method Not Allowed (Allow: GET, POST)');
    expect(app.logger.records.map((r) => r.level)).toEqual(['ERROR']);
  });

  it('turns a throwing controller into a 500 logged at CRITICAL', async () => {
    const app = errorKernel((d) =>
      d.on('kernel.request', (event) => {
        if (event.isMainRequest())
          event.request.attributes.set('_controller', function broken() {
            throw new TypeError('Cannot read properties of undefined');
          });
      }),
    );
    const response = await app.handle(Request.fromUrl('http://localhost/boom'));
    expect(response.status).toBe(500);
    expect(response.headers.get('x-debug-exception')).toBe('Cannot%20read%20properties%20of%20undefined');
    expect(app.logger.records).toHaveLength(1);
    expect(app.logger.records[0]).toMatchObject({ level: 'CRITICAL', channel: 'request' });
    expect(app.logger.records[0]!.message).toMatch(
      /^Uncaught Error TypeError: "Cannot read properties of undefined" at error-listener\.test\.ts line \d+$/,
    );
    expect(app.eventOrder()).toEqual([
      'main kernel.request',
      'main kernel.controller',
      'main kernel.controller_arguments',
      'main kernel.exception',
      ...ERROR_PAGE_EVENTS,
    ]);
  });

  it('gives a plain response with the original status and logs both errors when the error controller throws', async () => {
    const throwing = defineController([], () => {
      throw new RangeError('renderer exploded');
    });
    // The same failure after a wait: the sub-request's promise rejects instead.
    const rejecting = defineController([], async () => {
      await Promise.resolve();
      throw new RangeError('renderer exploded');
    });
    for (const [debug, failing] of [
      [true, throwing],
      [false, throwing],
      [false, rejecting],
    ] as const) {
      const app = errorKernel(
        (d) =>
          d.on('kernel.request', (event) => {
            if (event.isMainRequest()) throw new MethodNotAllowedHttpError(['GET'], 'Method Not Allowed (Allow: GET)');
          }),
        { controller: failing, debug },
      );
      const response = await app.handle(Request.fromUrl('http://localhost/x', { method: 'PUT' }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET');
      expect(response.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
      expect(response.headers.get('cache-control')).toBe('no-cache, private');
      const body = bodyText(response);
      expect(body.startsWith('405 Method Not Allowed\n')).toBe(true);
      if (debug) {
        expect(body).toContain('renderer exploded');
        expect(response.headers.has('x-debug-exception')).toBe(true);
      } else {
        expect(body).toBe('405 Method Not Allowed\n');
        expect(response.headers.has('x-debug-exception')).toBe(false);
      }
      expect(app.logger.records.map((r) => [r.level, r.channel])).toEqual([
        ['ERROR', 'request'],
        ['CRITICAL', 'request'],
      ]);
      expect(app.logger.records[1]!.message).toMatch(
        /^Exception thrown when handling an exception \(RangeError: "renderer exploded" at error-listener\.test\.ts line \d+\)$/,
      );
    }
  });

  it('answers synchronously through handleEagerly while nothing waits, and with a promise once the error controller does', async () => {
    const syncApp = throwingAtRequest(new NotFoundHttpError('nope'));
    const now = syncApp.kernel.handleEagerly(Request.fromUrl('http://localhost/x'));
    expect(now).toBeInstanceOf(Response);
    expect((now as Response).status).toBe(404);

    const waiting = defineController([], async () => new Response('rendered later', 200, { 'content-type': 'text/plain' }));
    const asyncApp = errorKernel(
      (d) =>
        d.on('kernel.request', (event) => {
          if (event.isMainRequest()) throw new NotFoundHttpError('nope');
        }),
      { controller: waiting },
    );
    const later = asyncApp.kernel.handleEagerly(Request.fromUrl('http://localhost/x'));
    expect(later).toBeInstanceOf(Promise);
    const response = await later;
    expect([response.status, response.body]).toEqual([404, 'rendered later']);
  });

  it('runs the sub-request through handle() on a kernel that has no handleEagerly', async () => {
    const app = throwingAtRequest(new NotFoundHttpError('nope'));
    const listener = new ErrorListener({ debug: false });
    const handleOnly = {
      handle: (request: Request, type?: RequestType, catchErrors?: boolean) => app.kernel.handle(request, type, catchErrors),
    };
    const event = new ExceptionEvent(handleOnly, Request.fromUrl('http://localhost/x'), RequestType.MAIN, new NotFoundHttpError('nope'));
    const pending = listener.onKernelException(event);
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    expect(event.response?.status).toBe(404);
  });

  it('survives a kernel.response listener of the sub-request that throws', async () => {
    const app = errorKernel((d) => {
      d.on('kernel.request', (event) => {
        if (event.isMainRequest()) throw new NotFoundHttpError('nope');
      });
      d.on('kernel.response', (event) => {
        if (!event.isMainRequest()) throw new Error('listener broke');
      });
    });
    const response = await app.handle(Request.fromUrl('http://localhost/x'));
    expect(response.status).toBe(404);
    expect(bodyText(response).startsWith('404 Not Found\n')).toBe(true);
    expect(app.eventOrder()).toContain('sub kernel.finish_request');
  });

  it('removes Content-Security-Policy from the error response in debug mode only', async () => {
    for (const debug of [true, false]) {
      const app = errorKernel(
        (d) => {
          d.on('kernel.request', (event) => {
            if (event.isMainRequest()) throw new NotFoundHttpError('nope');
          });
          d.on('kernel.response', (event) => void event.response.headers.set('content-security-policy', "default-src 'none'"), 0);
        },
        { debug },
      );
      const response = await app.handle(Request.fromUrl('http://localhost/x'));
      expect(response.headers.has('content-security-policy')).toBe(!debug);
      expect(response.headers.has('x-debug-exception')).toBe(debug);
    }
  });

  it('keeps the CSP of successful responses', async () => {
    const app = errorKernel((d) => {
      d.on('kernel.request', (event) => void event.request.attributes.set('_controller', () => new Response('fine')));
      d.on('kernel.response', (event) => void event.response.headers.set('content-security-policy', "default-src 'none'"));
    });
    const response = await app.handle(Request.fromUrl('http://localhost/ok'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
  });

  it('logs an error once even when it passes kernel.exception twice', async () => {
    const error = new NotFoundHttpError('twice');
    const app = throwingAtRequest(error);
    await app.handle(Request.fromUrl('http://localhost/a'));
    await app.handle(Request.fromUrl('http://localhost/a'));
    expect(app.logger.records).toHaveLength(1);
  });

  it('renders a thrown non-error value as a 500', async () => {
    const app = throwingAtRequest('just a string');
    const response = await app.handle(Request.fromUrl('http://localhost/a', { headers: { accept: 'application/json' } }));
    expect(response.status).toBe(500);
    expect(JSON.parse(bodyText(response))).toMatchObject({ status: 500, detail: 'just a string', class: 'string' });
    expect(app.logger.records[0]).toMatchObject({ level: 'CRITICAL', message: 'Uncaught Error string: "just a string"' });
  });

  it('puts the details of an HttpError into the problem document', async () => {
    const violations = [{ propertyPath: 'email', title: 'This value is not a valid email address.' }];
    const app = throwingAtRequest(new UnprocessableEntityHttpError('Validation failed', { details: { violations, status: 'ignored' } }));
    const response = await app.handle(Request.fromUrl('http://localhost/a', { headers: { accept: 'application/problem+json' } }));
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = JSON.parse(bodyText(response)) as Record<string, unknown>;
    expect(problem).toMatchObject({
      type: 'about:blank',
      title: 'Unprocessable Content',
      status: 422,
      detail: 'Validation failed',
      violations,
    });
  });
});

describe('ErrorListener outside debug mode', () => {
  it('answers a 404 without making a request stack for the failed request or its error sub-request', async () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    dispatcher.addSubscriber(new ErrorListener({ debug: false, defaultFormat: 'problem+json', logger: nullLogger }));
    let subRequest: Request | null = null;
    dispatcher.on('kernel.request', (event) => {
      if (event.isMainRequest()) throw new NotFoundHttpError('No route found for "GET http://localhost/missing"');
      subRequest = event.request;
    });
    const request = Request.fromUrl('http://localhost/missing');
    const response = await new HttpKernel({ dispatcher, logger: nullLogger }).handle(request);
    expect([response.status, response.headers.get('content-type')]).toEqual([404, 'application/problem+json']);
    expect(subRequest).not.toBeNull();
    expect([request.existingRequestStack, subRequest!.existingRequestStack]).toEqual([null, null]);
  });
});
