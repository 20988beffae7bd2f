import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventDispatcher, HttpError, HttpKernel, MemoryLogger, Request, Response, type KernelEventMap } from '@switchboard/http-kernel';
import { statusOf } from '@switchboard/http-kernel/internal';
import { RouterListener, type Router } from '../../src/index.js';

/** A kernel with the router listener and a stand-in error responder that records what it answered. */
export interface RoutedKernel {
  readonly kernel: HttpKernel;
  readonly dispatcher: EventDispatcher<KernelEventMap>;
  readonly listener: RouterListener;
  readonly logger: MemoryLogger;
  /** Every error that reached kernel.exception, in order. */
  readonly errors: unknown[];
}

export function routedKernel(router: Router): RoutedKernel {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const logger = new MemoryLogger();
  const listener = new RouterListener(router, { logger });
  dispatcher.addSubscriber(listener);
  const errors: unknown[] = [];
  // Stands in for the error controller: status, message and the error's headers (Allow…).
  dispatcher.addListener(
    'kernel.exception',
    (event) => {
      errors.push(event.throwable);
      const status = statusOf(event.throwable);
      const response = new Response(`${status} ${(event.throwable as Error).message}`, status, {
        'content-type': 'text/plain; charset=UTF-8',
      });
      if (event.throwable instanceof HttpError)
        for (const [name, value] of Object.entries(event.throwable.headers)) response.headers.set(name, value);
      event.setResponse(response);
    },
    -128,
    { name: 'TestErrorResponder' },
  );
  return { kernel: new HttpKernel({ dispatcher, logger }), dispatcher, listener, logger, errors };
}

export interface RunningServer {
  readonly origin: string;
  close(): Promise<void>;
}

/** The kernel behind a real node:http server on 127.0.0.1 (test support; the node adapter is another package). */
export async function serve(kernel: HttpKernel): Promise<RunningServer> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const response = await kernel.handle(toRequest(req));
      res.writeHead(response.status, response.headers.toObject());
      res.end(typeof response.body === 'string' || response.body instanceof Uint8Array ? response.body : '');
    })().catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function toRequest(req: IncomingMessage): Request {
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  const [host, port] = (req.headers.host ?? 'localhost').split(':');
  return new Request({
    method: req.method ?? 'GET',
    scheme: 'http',
    host: host ?? 'localhost',
    ...(port === undefined ? {} : { port: Number(port) }),
    path: queryAt < 0 ? target : target.slice(0, queryAt),
    query: queryAt < 0 ? '' : target.slice(queryAt + 1),
    headers: Object.entries(req.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, value] as const])),
  });
}
