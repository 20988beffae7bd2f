import http from 'node:http';
import type { RequestListener } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerFactory } from 'fastify';
import { HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

/**
 * `logged`: Fastify's request ids and its "incoming request" / "request completed" pino lines,
 * written to a stream that drops them (what the logging costs, not the terminal).
 */
export function createApp(serverFactory?: FastifyServerFactory, logged = false): FastifyInstance {
  const logger = logged ? { level: 'info', stream: { write: (): void => {} } } : false;
  const app = Fastify({ logger, ...(serverFactory === undefined ? {} : { serverFactory }) });
  app.get(HELLO_PATH, async () => HELLO_BODY);
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).type('application/problem+json').send(NOT_FOUND_BODY));
  return app;
}

/** Fastify's own request handler: the function its server factory hands to `http.createServer`. */
export async function createListener({ logged = false }: { logged?: boolean } = {}): Promise<RequestListener> {
  let listener: RequestListener | undefined;
  const app = createApp((handler) => {
    listener = handler as RequestListener;
    return http.createServer(handler);
  }, logged);
  await app.ready();
  return listener!;
}
