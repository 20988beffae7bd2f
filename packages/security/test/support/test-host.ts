import { ErrorListener } from '@switchboard/error-controller';
import {
  ControllerResolver,
  MemoryLogger,
  type Controller,
  type EventDispatcher,
  type HttpKernel,
  type HttpKernelInterface,
  type KernelEventMap,
  type Logger,
  type Response,
} from '@switchboard/http-kernel';
import { MemoryProfilerStorage, Profiler, profilingLogger, registerProfiler } from '@switchboard/profiler';
import { defaultCollectors } from '@switchboard/profiler/collector';
import { SecurityCollector } from '../../src/profiler/index.js';
import { serveKernel, testKernel, type RouteTable, type TextResponse } from '../../../../test/kit/index.js';
import type { LeakLedger } from './leak-ledger.js';

export interface TestRoute {
  name: string;
  path: string;
  /** Any method when not given. */
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
  request(path: string, init?: RequestInit): Promise<TextResponse>;
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
 * The test kit's kernel and server with the kit's exact-path route table, the real error listener,
 * the real profiler in debug mode (no secrets configured, so its redaction cannot hide a leak of
 * ours). Every response, log record and stored profile goes into the ledger for the leak scan.
 */
export async function startTestHost(options: TestHostOptions): Promise<TestHost> {
  const memory = new MemoryLogger();
  const debug = options.debug ?? true;
  const profiler = debug
    ? new Profiler({
        storage: new MemoryProfilerStorage({ maxProfiles: 10_000 }),
        collectors: [...defaultCollectors(), new SecurityCollector()],
      })
    : null;
  const logger: Logger = profiler === null ? memory : profilingLogger(memory, profiler);
  const { kernel, dispatcher } = testKernel({
    routes: routeTable(options.routes),
    subscribers: [new ErrorListener({ debug, logger })],
    textErrors: false,
    logger,
    // With the profiler, the kernel dispatches through its tracing decorator, so profiles hold the event traces.
    ...(profiler === null ? {} : { decorate: (inner: EventDispatcher<KernelEventMap>) => registerProfiler(inner, profiler) }),
    setup: (inner) => options.setup(inner, logger),
    controllerResolver: new ControllerResolver(),
  });
  const served = await serveKernel(recordingResponses(kernel, options.ledger));
  let closed: Promise<void> | null = null;

  return {
    url: served.origin,
    logger: memory,
    profiler,
    dispatcher,
    request: (path, init) => served.fetch(path, init),
    close() {
      // Idempotent: the leak-scan test closes early to flush the log records into the ledger.
      closed ??= (async () => {
        await served.close();
        for (const record of memory.records) options.ledger.record(`log ${record.channel}`, JSON.stringify(record, replacer));
        for (const summary of (await profiler?.storage.find({ limit: 10_000 })) ?? []) {
          options.ledger.record(`profile ${summary.token}`, JSON.stringify(await profiler!.storage.read(summary.token), replacer));
        }
      })();
      return closed;
    },
  };
}

/** One table entry per method a route allows (the path alone when it allows any), named as the route. */
function routeTable(routes: readonly TestRoute[]): RouteTable {
  const table: Record<string, RouteTable[string]> = {};
  for (const { name, path, methods, defaults = {}, controller } of routes) {
    for (const method of methods ?? [null]) table[method === null ? path : `${method} ${path}`] = { name, controller, defaults };
  }
  return table;
}

/** The kernel, each response's status, headers and body recorded in the ledger before the adapter writes it. */
function recordingResponses(kernel: HttpKernel, ledger: LeakLedger): HttpKernelInterface {
  return {
    async handle(request, type, catchErrors) {
      const response = await kernel.handle(request, type, catchErrors);
      response.body = await bodyText(response);
      ledger.record(
        `response ${request.method} ${request.rawPath}`,
        `${response.status}\n${JSON.stringify(response.headers.toObject())}\n${response.body}`,
      );
      return response;
    },
    terminate: (request, response) => kernel.terminate(request, response),
    dispatcher: kernel.dispatcher,
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

/** Log contexts may hold errors: keep their message and stack in the ledger. */
function replacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}
