import type { RequestListener } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

/** Hono's app behind @hono/node-server's request listener (what its `serve()` gives node:http). */
export function createListener(): RequestListener {
  const app = new Hono();
  app.get(HELLO_PATH, (c) => c.json(HELLO_BODY));
  app.notFound((c) => c.json(NOT_FOUND_BODY, 404, { 'content-type': 'application/problem+json' }));
  return getRequestListener(app.fetch) as RequestListener;
}
