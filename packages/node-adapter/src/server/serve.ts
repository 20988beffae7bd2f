import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createStderrLogger, type HttpKernelInterface, type Logger } from '@switchboard/http-kernel';
import { resolveAdapterOptions, type NodeAdapterOptions } from '../adapter-options.js';
import { NodeAdapter } from '../node-adapter.js';
import { answerClientError, answerConnect } from './client-error-responder.js';
import { resolveServerLimits, type ResolvedServerLimits, type ServerLimits } from './server-limits.js';

/** PEM contents (not paths) of the server's key and certificate chain. */
export interface TlsOptions {
  key: string | Buffer;
  cert: string | Buffer;
  /** Passphrase of an encrypted key. Never logged. */
  passphrase?: string;
}

export interface ServeOptions extends NodeAdapterOptions, ServerLimits {
  /** Default 0: any free port (read it from the result). */
  port?: number;
  /** Default `127.0.0.1`: reachable from this machine only. Use `0.0.0.0` or `::` deliberately. */
  host?: string;
  /** Enables HTTPS; HTTP/2 and HTTP/1.1 clients then share the port (ALPN). */
  tls?: TlsOptions;
  /** Shut down gracefully on SIGTERM and SIGINT, then exit 0, all within `shutdownTimeout`. Default true. */
  handleSignals?: boolean;
  /**
   * Runs after the server stopped and every `kernel.terminate` finished (close pools here); it gets
   * what is left of `shutdownTimeout`, and the shutdown ends at that deadline whether it finished or not.
   */
  onShutdown?: () => void | Promise<void>;
  /**
   * Runs first thing when the shutdown starts, before any connection closes: tell readiness
   * (`Readiness.startDraining`) so probes answer 503 and balancers stop sending.
   */
  onShutdownStart?: () => void;
}

export interface RunningServer {
  readonly server: http.Server | http2.Http2SecureServer;
  /** `http://127.0.0.1:8000`, `https://[::1]:8443`… */
  readonly url: string;
  readonly port: number;
  /**
   * Stops accepting connections and closes idle keep-alive ones, lets in-flight requests finish
   * (`shutdownGracePeriod`; those still running then get a 503), waits for `kernel.terminate`,
   * then runs `onShutdown`. Resolves within `shutdownTimeout`.
   */
  close(): Promise<void>;
}

/**
 * Without a logger, what an operator must see still reaches stderr: requests cut off by a shutdown,
 * a shutdown that failed or ran out of time (WARNING and above). Signals and the shutdown's progress
 * are INFO and stay quiet.
 */
const SHUTDOWN_REPORTS_ON_STDERR: Logger = createStderrLogger('WARNING');

/**
 * Starts a hardened node server for `kernel`. Rejects before listening when a route declares what
 * no registered listener acts on (`HttpKernel.checkDeclarations`).
 */
export async function serve(kernel: HttpKernelInterface, options: ServeOptions = {}): Promise<RunningServer> {
  kernel.checkDeclarations?.();
  const limits = resolveServerLimits(options);
  const adapter = new NodeAdapter(kernel, options);
  const logger = (options.logger ?? SHUTDOWN_REPORTS_ON_STDERR).child({ channel: 'http' });
  const connections = options.tls === undefined ? null : new TlsConnections();
  const server = options.tls === undefined ? plainServer(adapter, limits) : secureServer(adapter, limits, options.tls, connections!);
  const answerHeaders = resolveAdapterOptions(options).answerHeaders;
  server.on('clientError', (error: Error & { code?: string }, socket) => answerClientError(error, socket, answerHeaders));
  server.on('connect', answerConnect);

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const scheme = options.tls === undefined ? 'http' : 'https';
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const started = Date.now();
      const deadline = started + limits.shutdownTimeout;
      options.onShutdownStart?.();
      adapter.closeConnectionsAfterResponse();
      // Event streams never end on their own: they end now, with a hint to reconnect elsewhere.
      const streams = adapter.endEventStreams();
      if (streams > 0) logger.info({ streams }, `${streams} event stream(s) told to reconnect and closed.`);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      const closeIdle = (): void => (connections === null ? (server as http.Server).closeIdleConnections() : connections.closeGracefully());
      closeIdle();
      if (!(await settlesBefore(stopped, started + limits.shutdownGracePeriod))) {
        const answered = adapter.answerInFlightRequests();
        logger.warn({ answered }, `${answered} in-flight request(s) did not finish within ${limits.shutdownGracePeriod} ms: answered 503.`);
        closeIdle();
        // Time for those 503s to go out; whatever is still open after it is cut.
        if (!(await settlesBefore(stopped, Date.now() + (deadline - Date.now()) / 3))) {
          logger.warn({}, 'Connections still open after the grace period: closing them.');
          if (connections === null) (server as http.Server).closeAllConnections();
          else connections.destroyAll();
        }
      }
      if (!(await settlesBefore(adapter.drain(), deadline)))
        logger.warn({}, 'kernel.terminate did not finish before the shutdown deadline.');
      // Bounded too: a pool that never closes must not keep the process from exiting.
      if (options.onShutdown !== undefined && !(await settlesBefore(Promise.resolve().then(options.onShutdown), deadline))) {
        logger.warn({}, 'onShutdown did not finish before the shutdown deadline.');
      }
    })().finally(() => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    }));

  // Kept until the end of the shutdown, and silent after the first: one Ctrl-C reaches node from
  // the terminal and again from each pnpm or npm above it (as SIGINT, then SIGTERM), so later
  // signals are the same stop, not news; they must not kill the process halfway either. The
  // shutdown is bounded anyway; SIGKILL or SIGQUIT (Ctrl-\) ends it at once.
  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing !== undefined) return;
    logger.info({ signal }, `${signal} received: finishing in-flight requests, then exiting (at most ${limits.shutdownTimeout} ms).`);
    const received = Date.now();
    close().then(
      () => {
        const durationMs = Date.now() - received;
        logger.info({ durationMs }, `Shutdown finished in ${durationMs} ms; exiting.`);
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'Shutdown failed.');
        process.exit(1);
      },
    );
  };
  if (options.handleSignals ?? true) {
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
  return { server, url, port, close };
}

function plainServer(adapter: NodeAdapter, limits: ResolvedServerLimits): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeout,
      requestTimeout: limits.requestTimeout,
      maxHeaderSize: limits.maxHeaderSize,
      // The adapter answers a missing Host itself, with a body that says so (Node's 400 has none).
      requireHostHeader: false,
      // How often Node checks the two timeouts above (its default, 30 s, would let them overrun).
      connectionsCheckingInterval: Math.min(5_000, Math.max(250, limits.headersTimeout / 4)),
    },
    adapter.listener,
  );
  server.keepAliveTimeout = limits.keepAliveTimeout;
  return server;
}

function secureServer(
  adapter: NodeAdapter,
  limits: ResolvedServerLimits,
  tls: TlsOptions,
  connections: TlsConnections,
): http2.Http2SecureServer {
  const server = http2.createSecureServer(
    {
      key: tls.key,
      cert: tls.cert,
      ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
      allowHTTP1: true,
      handshakeTimeout: Math.min(10_000, limits.headersTimeout),
      settings: { maxConcurrentStreams: limits.maxConcurrentStreams, maxHeaderListSize: limits.maxHeaderSize },
    },
    adapter.listener,
  );
  // Read by Node's HTTP/1 connection handling for clients that fall back to HTTP/1.1.
  Object.assign(server, {
    maxHeaderSize: limits.maxHeaderSize,
    requireHostHeader: false,
    keepAliveTimeout: limits.keepAliveTimeout,
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.requestTimeout,
  });
  server.setTimeout(limits.idleTimeout);
  server.on('session', (session: http2.ServerHttp2Session) => connections.addSession(session));
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.alpnProtocol !== 'h2') connections.addHttp1Socket(socket);
  });
  return server;
}

/** The open connections of a TLS server, so shutdown can close them (Node tracks only plain HTTP/1). */
class TlsConnections {
  readonly #sessions = new Set<http2.ServerHttp2Session>();
  readonly #http1 = new Set<Socket>();

  addSession(session: http2.ServerHttp2Session): void {
    this.#sessions.add(session);
    session.once('close', () => this.#sessions.delete(session));
  }

  addHttp1Socket(socket: Socket): void {
    this.#http1.add(socket);
    socket.once('close', () => this.#http1.delete(socket));
  }

  /** HTTP/2: GOAWAY, open streams finish. HTTP/1: idle sockets close now, busy ones after their response. */
  closeGracefully(): void {
    for (const session of this.#sessions) session.close();
    for (const socket of this.#http1) {
      // Node keeps the response in progress on the socket; none means it waits for a next request.
      if ((socket as Socket & { _httpMessage?: unknown })._httpMessage == null) socket.destroy();
    }
  }

  destroyAll(): void {
    for (const session of this.#sessions) session.destroy();
    for (const socket of this.#http1) socket.destroy();
  }
}

/** Whether `work` settles before `time` (epoch ms); a rejection is passed on. */
function settlesBefore(work: Promise<unknown>, time: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, time - Date.now()));
  });
  return Promise.race([work.then(() => true), timeUp]).finally(() => clearTimeout(timer));
}
