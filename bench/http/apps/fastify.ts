import http from 'node:http';
import type { RequestListener } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerFactory } from 'fastify';
import { HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

export function createApp(serverFactory?: FastifyServerFactory): FastifyInstance {
  const app = Fastify({ logger: false, ...(serverFactory === undefined ? {} : { serverFactory }) });
  app.get(HELLO_PATH, async () => HELLO_BODY);
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).type('application/problem+json').send(NOT_FOUND_BODY));
  return app;
}

/** Fastify's own request handler: the function its server factory hands to `http.createServer`. */
export async function createListener(): Promise<RequestListener> {
  let listener: RequestListener | undefined;
  const app = createApp((handler) => {
    listener = handler as RequestListener;
    return http.createServer(handler);
  });
  await app.ready();
  return listener!;
}
