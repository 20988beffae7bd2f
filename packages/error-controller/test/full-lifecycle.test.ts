/**
 * The "done when": the whole kernel with routing, the error listener and the response
 * defaults, one request at a time, headers and event order read from the dispatcher's tracer.
 */
import { describe, expect, it } from 'vitest';
import { defineController, HttpError, JsonResponse, Request, type Response } from '@switchboard/http-kernel';
import type { ErrorListenerOptions } from '../src/index.js';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { ERROR_PAGE_EVENTS } from '../../../test/kit/index.js';
import { bodyText, errorKernel } from './support/error-kernel.js';

const routes = new RouteCollection()
  .add('items', '/items', { methods: ['GET', 'POST'], controller: () => new JsonResponse([]) })
  .add('boom', '/boom', {
    controller: defineController([], function boom(): never {
      throw new Error('database unreachable');
    }),
  })
  .add('chain', '/chain', {
    controller: defineController([], function chain(): never {
      const root = new Error('ECONNREFUSED 127.0.0.1:5432');
      const middle = new Error('connection pool exhausted', { cause: root });
      throw new HttpError(503, 'Orders are unavailable', { cause: middle });
    }),
  });
const router = new Router(routes);

/** The kernel with the real router listener (sharing the app's logger), the error listener and the response defaults. */
function app(options: Partial<ErrorListenerOptions> = {}) {
  const kernel = errorKernel(() => {}, options);
  kernel.dispatcher.addSubscriber(new RouterListener(router, { logger: kernel.logger, debug: true }));
  return Object.assign(kernel, {
    /** Records at ERROR or above: the router's `Matched route` INFO lines are not errors. */
    errors: () => kernel.logger.records.filter((r) => r.level === 'ERROR' || r.level === 'CRITICAL'),
  });
}

/** Asserts every header of the error response (docs/errors.md) except the profiler's three, and no cookie. */
function expectErrorHeaders(response: Response, contentType = 'text/html; charset=UTF-8'): void {
  expect(response.headers.get('content-type')).toBe(contentType);
  expect(response.headers.get('cache-control')).toBe('no-cache, private');
  expect(response.headers.get('vary')).toBe('Accept');
  expect(response.headers.get('x-robots-tag')).toBe('noindex');
  expect(response.headers.get('date')).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
  expect(response.headers.get('x-debug-exception')).toMatch(/^[A-Za-z0-9\-._~%]+$/);
  expect(response.headers.get('x-debug-exception-file')).toMatch(/^[A-Za-z0-9\-._~%]+\.ts:\d+$/);
  expect(response.headers.has('set-cookie')).toBe(false);
}

describe('full lifecycle of an error response', () => {
  it('404 for an unmatched GET /robots.txt with a referer', async () => {
    const kernel = app();
    const response = await kernel.handle(
      Request.fromUrl('http://api.example.test:8080/robots.txt', { headers: { referer: 'https://search.example/?q=robots' } }),
    );
    const message = 'No route found for "GET http://api.example.test:8080/robots.txt" (from "https://search.example/?q=robots")';
    expect(response.status).toBe(404);
    expectErrorHeaders(response);
    expect(decodeURIComponent(response.headers.get('x-debug-exception')!)).toBe(message);
    expect(bodyText(response)).toContain('No route found for &quot;GET http://api.example.test:8080/robots.txt&quot;');
    expect(kernel.errors().map((r) => [r.level, r.channel])).toEqual([['ERROR', 'request']]);
    expect(kernel.errors()[0]!.message).toBe(
      `Uncaught Error NotFoundHttpError: "${message}" at ${decodeURIComponent(response.headers.get('x-debug-exception-file')!)
        .replace(/^.*\//, '')
        .replace(/:(\d+)$/, ' line $1')}`,
    );
    expect(kernel.eventOrder()).toEqual(['main kernel.request', 'main kernel.exception', ...ERROR_PAGE_EVENTS]);
    // The throw site is the router listener's source, and the matcher's message (slash retried) is the cause.
    expect(decodeURIComponent(response.headers.get('x-debug-exception-file')!)).toMatch(
      /\/packages\/router\/src\/listener\/router-listener\.ts:\d+$/,
    );
    expect(bodyText(response)).toContain('<p class="message">No routes found for &quot;/robots.txt/&quot;.</p>');
    const routed = kernel.traces.filter((t) => t.eventName === 'kernel.request').flatMap((t) => t.called.map((c) => c.name));
    expect(routed).toEqual(['RouterListener.onKernelRequest', 'RouterListener.onKernelRequest']);
  });

  it("405 with the Allow header and the router's message", async () => {
    const kernel = app();
    const response = await kernel.handle(Request.fromUrl('http://localhost/items', { method: 'DELETE' }));
    expect(response.status).toBe(405);
    expectErrorHeaders(response);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(decodeURIComponent(response.headers.get('x-debug-exception')!)).toBe(
      'No route found for "DELETE http://localhost/items": Method Not Allowed (Allow: GET, POST)',
    );
    expect(kernel.errors().map((r) => r.level)).toEqual(['ERROR']);
    expect(kernel.eventOrder()).toEqual(['main kernel.request', 'main kernel.exception', ...ERROR_PAGE_EVENTS]);
  });

  it('500 from a throwing controller, logged at CRITICAL, file pointing at the controller', async () => {
    const kernel = app();
    const response = await kernel.handle(Request.fromUrl('http://localhost/boom'));
    expect(response.status).toBe(500);
    expectErrorHeaders(response);
    expect(decodeURIComponent(response.headers.get('x-debug-exception-file')!)).toMatch(/full-lifecycle\.test\.ts:\d+$/);
    expect(kernel.errors().map((r) => [r.level, r.channel])).toEqual([['CRITICAL', 'request']]);
    expect(kernel.eventOrder()).toEqual([
      'main kernel.request',
      'main kernel.controller',
      'main kernel.controller_arguments',
      'main kernel.exception',
      ...ERROR_PAGE_EVENTS,
    ]);
  });

  it('an error with a 3-level cause chain shows every level', async () => {
    const kernel = app();
    const html = await kernel.handle(Request.fromUrl('http://localhost/chain'));
    expect(html.status).toBe(503);
    expectErrorHeaders(html);
    const body = bodyText(html);
    for (const message of ['Orders are unavailable', 'connection pool exhausted', 'ECONNREFUSED 127.0.0.1:5432']) {
      expect(body).toContain(`<p class="message">${message}</p>`);
    }
    const json = await kernel.handle(Request.fromUrl('http://localhost/chain', { headers: { accept: 'application/json' } }));
    const problem = JSON.parse(bodyText(json)) as { causes: Array<{ message: string }> };
    expect(problem.causes.map((c) => c.message)).toEqual(['connection pool exhausted', 'ECONNREFUSED 127.0.0.1:5432']);
    expect(kernel.errors().map((r) => r.level)).toEqual(['CRITICAL', 'CRITICAL']);
  });

  it('an error thrown by the error controller itself: plain text, original status, both errors logged', async () => {
    const kernel = app({
      controller: defineController(['exception'], function brokenErrorController(): never {
        throw new TypeError('template missing');
      }),
    });
    const response = await kernel.handle(Request.fromUrl('http://localhost/items', { method: 'PATCH' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, private');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    expect(bodyText(response)).toMatch(/^405 Method Not Allowed\n\nMethodNotAllowedHttpError: No route found/);
    expect(bodyText(response)).toContain('The error page failed too:\nTypeError: template missing');
    expect(kernel.errors().map((r) => [r.level, r.channel])).toEqual([
      ['ERROR', 'request'],
      ['CRITICAL', 'request'],
    ]);
    expect(kernel.eventOrder()).toEqual([
      'main kernel.request',
      'main kernel.exception',
      'sub kernel.request',
      'sub kernel.controller',
      'sub kernel.controller_arguments',
      'sub kernel.finish_request',
      'main kernel.response',
      'main kernel.finish_request',
    ]);
  });

  describe('each Accept variant', () => {
    it.each([
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html; charset=UTF-8', '<!DOCTYPE html>'],
      ['application/json', 'application/problem+json', '{"type":"about:blank","title":"Not Found","status":404,'],
      ['application/problem+json', 'application/problem+json', '{"type":"about:blank"'],
      ['text/plain', 'text/plain; charset=UTF-8', '404 Not Found\n\nNotFoundHttpError: No route found for'],
      ['*/*', 'text/html; charset=UTF-8', '<!DOCTYPE html>'],
      [undefined, 'text/html; charset=UTF-8', '<!DOCTYPE html>'],
      ['}{ not a media type', 'text/html; charset=UTF-8', '<!DOCTYPE html>'],
    ])('Accept %j → %s', async (accept, contentType, bodyStart) => {
      const kernel = app();
      const response = await kernel.handle(
        Request.fromUrl('http://localhost/robots.txt', accept === undefined ? {} : { headers: { accept } }),
      );
      expect(response.status).toBe(404);
      expectErrorHeaders(response, contentType);
      expect(bodyText(response).startsWith(bodyStart)).toBe(true);
      expect(kernel.errors()).toHaveLength(1);
      expect(kernel.eventOrder()).toEqual(['main kernel.request', 'main kernel.exception', ...ERROR_PAGE_EVENTS]);
    });
  });

  it('a matched route still answers normally, without error headers', async () => {
    const kernel = app();
    const response = await kernel.handle(Request.fromUrl('http://localhost/items'));
    expect(response.status).toBe(200);
    expect(response.headers.has('x-debug-exception')).toBe(false);
    expect(response.headers.has('vary')).toBe(false);
    expect(kernel.errors()).toHaveLength(0);
  });
});
