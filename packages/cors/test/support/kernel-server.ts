import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  EventDispatcher,
  HttpKernel,
  NotFoundHttpError,
  Request,
  Response,
  statusOf,
  type Controller,
  type EventSubscriber,
  type KernelEventMap,
} from '@switchboard/http-kernel';

/**
 * A kernel behind a real node:http server, with a minimal exact-path router at kernel.request 32
 * (the router package is not needed to test CORS). Test support only.
 */
export interface KernelServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

export async function startKernelServer(
  subscribers: ReadonlyArray<EventSubscriber<KernelEventMap>>,
  routes: Record<string, Controller>,
  host = '127.0.0.1',
): Promise<KernelServer> {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  for (const subscriber of subscribers) dispatcher.addSubscriber(subscriber);
  dispatcher.addListener(
    'kernel.request',
    (event) => {
      const controller = routes[`${event.request.method} ${event.request.path}`];
      if (controller === undefined) throw new NotFoundHttpError(`No route found for "${event.request.method} ${event.request.url}"`);
      event.request.attributes.set('_controller', controller);
    },
    32,
    { name: 'TestRouter' },
  );
  // Stands in for the error controller: every error becomes a plain-text answer that still
  // goes through kernel.response, as error pages do.
  dispatcher.addListener(
    'kernel.exception',
    (event) => {
      const status = statusOf(event.throwable);
      event.setResponse(new Response(`${status}`, status, { 'content-type': 'text/plain; charset=UTF-8' }));
    },
    -128,
    { name: 'TestErrorResponder' },
  );
  const kernel = new HttpKernel({ dispatcher });
  const server = createServer((req, res) => {
    void (async () => {
      const request = toRequest(req, host);
      const response = await kernel.handle(request);
      res.writeHead(response.status, response.headers.toObject());
      res.end(typeof response.body === 'string' || response.body instanceof Uint8Array ? response.body : '');
    })().catch((error: unknown) => {
      res.writeHead(599).end(String(error));
    });
  });
  server.listen(0, host);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    server,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function toRequest(req: IncomingMessage, host: string): Request {
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  })();
  const headers: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  const port = req.socket.localPort ?? 80;
  return new Request({
    method: req.method ?? 'GET',
    host: host.includes(':') ? `[${host}]` : host,
    port,
    path: queryAt < 0 ? target : target.slice(0, queryAt),
    query: queryAt < 0 ? '' : target.slice(queryAt + 1),
    headers,
    body: {
      bytes: () => collected,
      text: async () => Buffer.from(await collected).toString('utf8'),
      async *stream() { yield await collected; },
    },
  });
}
