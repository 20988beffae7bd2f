import { generateKeyPairSync } from 'node:crypto';
import { ErrorListener } from '@switchboard/error-controller';
import {
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  MemoryLogger,
  RedirectResponse,
  Response,
  type KernelEventMap,
  type Request,
} from '@switchboard/http-kernel';
import { MemoryProfilerStorage, Profiler, profilingLogger, registerProfiler } from '@switchboard/profiler';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { currentUser, FirewallListener, FirewallMap, JwtAuthenticator, JwtTokenIssuer } from '@switchboard/security';

export interface SampleApp {
  readonly kernel: HttpKernel;
  readonly router: Router;
  readonly profiler: Profiler | null;
  readonly issuer: JwtTokenIssuer;
  /** Signs tokens that expired an hour ago. */
  readonly expiredIssuer: JwtTokenIssuer;
  /** Main requests that reached `kernel.terminate`, in order. */
  readonly terminated: Request[];
}

const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });

/** What `/inspect` answers: the request as the kernel saw it. */
export interface Inspection {
  method: string;
  scheme: string;
  host: string;
  port: number;
  path: string;
  query: string;
  clientIp: string;
  headers: Record<string, string | string[]>;
  body: string | null;
}

/**
 * A small app wired as a host wires one: the real router, error listener, JWT firewall on `/api`
 * and, with `profiler`, the real profiler. Its routes cover what the client's tests need.
 */
export function sampleApp(options: { profiler?: boolean } = {}): SampleApp {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const profiler = options.profiler === true ? new Profiler({ storage: new MemoryProfilerStorage() }) : null;
  const logger = profiler === null ? new MemoryLogger() : profilingLogger(new MemoryLogger(), profiler);
  const routes = new RouteCollection()
    .add('hello', '/hello', {
      methods: 'GET',
      controller: () => new Response('hello', 200, { 'content-type': 'text/plain; charset=UTF-8' }),
    })
    .add('inspect', '/inspect', { controller: inspect })
    .add('submit', '/submit', { methods: 'POST', controller: () => new JsonResponse({ submitted: true }, 201) })
    .add('item', '/items/:id', {
      methods: 'GET',
      requirements: { id: /\d+/ },
      controller: (request: Request) => new JsonResponse({ id: request.attributes.get('id') }),
    })
    .add('list', '/list/', { methods: 'GET', controller: () => new JsonResponse([]) })
    .add('redirect', '/redirect/:status', {
      controller: (request: Request) =>
        new RedirectResponse(`/inspect?from=${request.attributes.get('status')}`, Number(request.attributes.get('status'))),
    })
    .add('loop', '/loop/:n', {
      controller: (request: Request) => new RedirectResponse(`/loop/${Number(request.attributes.get('n')) + 1}`, 302),
    })
    .add('away', '/away', { controller: () => new RedirectResponse('http://other.example/inspect', 302) })
    .add('set-cookies', '/cookies/set', {
      controller: () =>
        new Response('', 204, [
          ['set-cookie', 'plain=1'],
          ['set-cookie', 'scoped=2; Path=/cookies/echo'],
          ['set-cookie', 'secure=3; Secure'],
          ['set-cookie', 'session=4; HttpOnly; SameSite=Lax'],
          ['set-cookie', 'short=5; Max-Age=1'],
          ['set-cookie', 'wide=6; Domain=localhost'],
          ['set-cookie', 'foreign=7; Domain=other.example'],
        ]),
    })
    .add('drop-cookie', '/cookies/drop', { controller: () => new Response('', 204, [['set-cookie', 'plain=; Max-Age=0']]) })
    .add('echo-cookies', '/cookies/echo', { controller: (request: Request) => new Response(request.headers.get('cookie') ?? '') })
    .add('stream', '/stream', {
      controller: () =>
        new Response(
          (async function* () {
            yield 'one,';
            yield new TextEncoder().encode('two');
          })(),
          200,
          { 'content-type': 'text/plain' },
        ),
    })
    .add('me', '/api/me', { controller: (request: Request) => new JsonResponse({ user: currentUser(request)?.identifier ?? null }) })
    .add('boom', '/boom', {
      controller: () => {
        throw new Error('the controller failed');
      },
    });
  const router = new Router(routes);
  dispatcher.addSubscriber(new RouterListener(router, { logger }));
  dispatcher.addSubscriber(
    new FirewallListener(
      new FirewallMap([
        { name: 'api', pattern: /^\/api/, authenticators: [new JwtAuthenticator({ publicKey: keys.publicKey, algorithms: ['ES256'] })] },
      ]),
      {
        logger,
      },
    ),
  );
  dispatcher.addSubscriber(new ErrorListener({ debug: false, logger }));
  const terminated: Request[] = [];
  dispatcher.on('kernel.terminate', (event) => void terminated.push(event.request));
  const kernelDispatcher = profiler === null ? dispatcher : registerProfiler(dispatcher, profiler);
  const kernel = new HttpKernel({ dispatcher: kernelDispatcher, logger });
  const issuer = new JwtTokenIssuer({ privateKey: keys.privateKey, algorithm: 'ES256', ttl: 600 });
  const expiredIssuer = new JwtTokenIssuer({
    privateKey: keys.privateKey,
    algorithm: 'ES256',
    ttl: 60,
    now: () => new Date(Date.now() - 3_600_000),
  });
  return { kernel, router, profiler, issuer, expiredIssuer, terminated };
}

async function inspect(request: Request): Promise<Response> {
  const inspection: Inspection = {
    method: request.method,
    scheme: request.scheme,
    host: request.host,
    port: request.port,
    path: request.rawPath,
    query: request.queryString,
    clientIp: request.clientIp,
    headers: request.headers.toObject(),
    body: request.body === null ? null : await request.body.text(),
  };
  return new JsonResponse(inspection);
}
