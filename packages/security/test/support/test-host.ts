import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorListener } from '@switchboard/error-controller';
import { MemoryProfilerStorage, Profiler, profilingLogger, registerProfiler } from '@switchboard/profiler';
import {
  ControllerResolver,
  EventDispatcher,
  HttpKernel,
  MemoryLogger,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  Request,
  type Response,
  type Controller,
  type KernelEventMap,
  type Logger,
  type RequestBody,
  type RequestEvent,
} from '@switchboard/http-kernel';
import type { LeakLedger } from './leak-ledger.js';

export interface TestRoute {
  name: string;
  path: string;
  methods?: readonly string[];
  defaults?: Readonly<Record<string, unknown>>;
  controller: Controller;
}

export interface TestHost {
  readonly url: string;
  /** Every record logged, whatever the channel (the listeners log through a profiling wrapper of it). */
  readonly logger: MemoryLogger;
  /** In debug mode, the profiler recording every request, as the example host runs it. */
  readonly profiler: Profiler | null;
  readonly dispatcher: EventDispatcher<KernelEventMap>;
  request(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: string }>;
  close(): Promise<void>;
}

export interface TestHostOptions {
  routes: readonly TestRoute[];
  /** Registers the listeners under test. */
  setup(dispatcher: EventDispatcher<KernelEventMap>, logger: Logger): void;
  ledger: LeakLedger;
  debug?: boolean;
}

/**
 * A kernel with a minimal exact-path router (kernel.request 32, as the real router), the real
 * error listener, the real profiler in debug mode (no secrets configured, so its redaction
 * cannot hide a leak of ours), and a real node:http server on 127.0.0.1. Every response, log
 * record and stored profile goes into the ledger for the leak scan.
 */
export async function startTestHost(options: TestHostOptions): Promise<TestHost> {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const memory = new MemoryLogger();
  const debug = options.debug ?? true;
  const profiler = debug ? new Profiler({ storage: new MemoryProfilerStorage({ maxProfiles: 10_000 }) }) : null;
  const logger: Logger = profiler === null ? memory : profilingLogger(memory, profiler);
  dispatcher.on('kernel.request', (event) => routeRequest(event, options.routes), 32, { name: 'TestRouter.onKernelRequest' });
  dispatcher.addSubscriber(new ErrorListener({ debug, logger }));
  // With the profiler, the kernel dispatches through its tracing decorator, so profiles hold the event traces.
  const kernelDispatcher = profiler === null ? dispatcher : registerProfiler(dispatcher, profiler);
  options.setup(dispatcher, logger);
  const kernel = new HttpKernel({ dispatcher: kernelDispatcher, controllerResolver: new ControllerResolver(), logger });

  const server = createServer((req, res) => {
    void serve(kernel, req, res, options.ledger).catch((error: unknown) => {
      options.ledger.record('server error', String(error));
      res.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed: Promise<void> | null = null;

  return {
    url,
    logger: memory,
    profiler,
    dispatcher,
    async request(path, init) {
      const response = await fetch(url + path, init);
      return { status: response.status, headers: response.headers, body: await response.text() };
    },
    close() {
      // Idempotent: the leak-scan test closes early to flush the log records into the ledger.
      closed ??= (async () => {
        await closeServer(server);
        for (const record of memory.records) options.ledger.record(`log ${record.channel}`, JSON.stringify(record, replacer));
        for (const summary of (await profiler?.storage.find({ limit: 10_000 })) ?? []) {
          options.ledger.record(`profile ${summary.token}`, JSON.stringify(await profiler!.storage.read(summary.token), replacer));
        }
      })();
      return closed;
    },
  };
}

function routeRequest(event: RequestEvent, routes: readonly TestRoute[]): void {
  if (!event.isMainRequest()) return;
  const request = event.request;
  const samePath = routes.filter((route) => route.path === request.path);
  if (samePath.length === 0) throw new NotFoundHttpError(`No route found for "${request.method} ${request.uri}"`);
  const route = samePath.find((candidate) => candidate.methods === undefined || candidate.methods.includes(request.method));
  if (route === undefined) {
    const allowed = samePath.flatMap((candidate) => candidate.methods ?? []);
    throw new MethodNotAllowedHttpError(allowed, `No route found for "${request.method} ${request.uri}": Method Not Allowed`);
  }
  for (const [key, value] of Object.entries(route.defaults ?? {})) request.attributes.set(key, value);
  request.attributes.set('_route', route.name);
  request.attributes.set('_controller', route.controller);
}

async function serve(kernel: HttpKernel, req: IncomingMessage, res: ServerResponse, ledger: LeakLedger): Promise<void> {
  const [path, query = ''] = (req.url ?? '/').split('?', 2) as [string, string?];
  const request = new Request({
    method: req.method ?? 'GET',
    host: (req.headers.host ?? '127.0.0.1').replace(/:\d+$/, ''),
    port: req.socket.localPort ?? 80,
    path,
    query,
    headers: Object.entries(req.headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined),
    clientIp: req.socket.remoteAddress ?? '127.0.0.1',
    body: bodyOf(req),
  });
  const response = await kernel.handle(request);
  const body = await bodyText(response);
  ledger.record(
    `response ${request.method} ${request.rawPath}`,
    `${response.status}\n${JSON.stringify(response.headers.toObject())}\n${body}`,
  );
  res.writeHead(response.status, response.headers.toObject());
  res.end(body);
  await kernel.terminate(request, response);
}

function bodyOf(req: IncomingMessage): RequestBody {
  const bytes = async (): Promise<Uint8Array> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  return {
    bytes,
    text: async () => Buffer.from(await bytes()).toString('utf8'),
    stream: () => req,
  };
}

async function bodyText(response: Response): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  let text = '';
  for await (const chunk of body) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Log contexts may hold errors: keep their message and stack in the ledger. */
function replacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}
