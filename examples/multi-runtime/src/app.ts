import { ErrorListener } from '@switchboard/error-controller';
import {
  BadRequestHttpError,
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  Response,
  type KernelEventMap,
  type Request,
} from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';

/** The largest request body the app accepts, in bytes; each entry hands it to its adapter. */
export const BODY_LIMIT = 1024;

/** What each runtime's entry needs to listen: the port from `PORT` (0: any free one) and the address. */
export interface ListenOptions {
  readonly port: number;
  readonly host: string;
}

/** `PORT` and `HOST` from the environment, as every entry reads them. */
export function listenOptions(env: Readonly<Record<string, string | undefined>>): ListenOptions {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`PORT must be a port number, got "${env.PORT}".`);
  return { port, host: env.HOST ?? '127.0.0.1' };
}

/** The line each entry prints once it listens (the conformance test waits for it). */
export function listeningLine(runtime: string, host: string, port: number): string {
  return `${runtime} listening on http://${host}:${port}`;
}

let shutdownBegan: () => void = () => undefined;
/** Settles when the entry's shutdown starts; `/slow` finishes only then, so a shutdown is seen to wait for it. */
const shutdownStarted = new Promise<void>((resolve) => {
  shutdownBegan = resolve;
});

/** What each entry calls when a shutdown signal arrives, before it finishes the requests in flight. */
export function announceShutdown(runtime: string): void {
  console.log(`${runtime} shutting down: finishing in-flight requests`);
  shutdownBegan();
}

const routes = new RouteCollection()
  .add('hello', '/hello', { methods: ['GET'], controller: () => new JsonResponse({ hello: 'world' }) })
  .add('fail', '/fail', {
    methods: ['GET'],
    controller: () => {
      throw new Error('The ledger database refused the password "s3cret": what a client must never read.');
    },
  })
  .add('stream', '/stream', {
    methods: ['GET'],
    controller: () => new Response(lines(['one\n', 'two\n', 'three\n']), 200, { 'content-type': 'text/plain; charset=UTF-8' }),
  })
  .add('echo', '/echo', { methods: ['POST'], controller: echo })
  .add('slow', '/slow', {
    methods: ['GET'],
    controller: () => new Response(untilShutdown(), 200, { 'content-type': 'text/plain; charset=UTF-8' }),
  });

/** The same app for every runtime: a kernel with the router and problem+json errors, debug off. */
export function createApp(): HttpKernel {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.addSubscriber(new RouterListener(new Router(routes)));
  dispatcher.addSubscriber(new ErrorListener({ debug: false }));
  return new HttpKernel({ dispatcher });
}

/** The JSON body it received; a body over `BODY_LIMIT` was refused with 413 by the adapter while reading. */
async function echo(request: Request): Promise<JsonResponse> {
  const text = request.body === null ? '' : await request.body.text();
  try {
    return new JsonResponse(JSON.parse(text));
  } catch {
    throw new BadRequestHttpError('The request body is not JSON.');
  }
}

/** `started` at once, `finished` once a shutdown began: a request still in flight when the signal comes. */
async function* untilShutdown(): AsyncGenerator<string> {
  yield 'started\n';
  await shutdownStarted;
  yield 'finished\n';
}

/** Each line as its own chunk of the response body, the next one made after the server had a turn to send it (as data arriving over time would be). */
async function* lines(chunks: readonly string[]): AsyncGenerator<string> {
  for (const [index, chunk] of chunks.entries()) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    yield chunk;
  }
}
