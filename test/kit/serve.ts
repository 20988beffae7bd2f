import type { HttpKernelInterface } from '@switchboard/http-kernel';
import { serve, type RunningServer, type ServeOptions } from '@switchboard/node-adapter';
import { testKernel, type TestKernel, type TestKernelOptions } from './kernel.js';

/** What a test reads of a response: status, headers and the whole body as text. */
export interface TextResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

export interface ServedKernel {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  readonly server: RunningServer['server'];
  /** `fetch(origin + path)`, the body read as text. */
  fetch(path: string, init?: RequestInit): Promise<TextResponse>;
  /** Stops the server (idempotent): for `afterAll`. */
  close(): Promise<void>;
}

/** Options of the adapter's `serve()`; the kit always listens on 127.0.0.1, any free port, without signal handlers. */
export type TestServeOptions = Omit<ServeOptions, 'host' | 'port' | 'handleSignals'>;

/** `kernel` behind the real node adapter's `serve()` on 127.0.0.1, any free port. */
export async function serveKernel(kernel: HttpKernelInterface, options: TestServeOptions = {}): Promise<ServedKernel> {
  const running = await serve(kernel, { ...options, host: '127.0.0.1', port: 0, handleSignals: false });
  return {
    origin: running.url,
    port: running.port,
    server: running.server,
    async fetch(path, init) {
      const response = await fetch(running.url + path, init);
      return { status: response.status, headers: response.headers, body: await response.text() };
    },
    close: () => running.close(),
  };
}

export type TestServer = TestKernel & ServedKernel;

/** `testKernel(options)`, served: the usual start of an HTTP test. */
export async function startTestServer(options: TestKernelOptions & { readonly serve?: TestServeOptions } = {}): Promise<TestServer> {
  const wired = testKernel(options);
  return { ...wired, ...(await serveKernel(wired.kernel, options.serve)) };
}
