import type { HttpKernelInterface } from '@switchboard/http-kernel';
import type { NodeAdapterOptions } from '@switchboard/node-adapter';
import type { GenerateArguments, RouteName, Router } from '@switchboard/router';
import { CookieJar } from './cookies/cookie-jar.js';
import { MAX_REDIRECTS, TooManyRedirectsError, isFollowedRedirect, nextMethod, type RedirectStep } from './request/redirect-rules.js';
import { encodeRequest, headerPairs, withQuery, type HeaderFields, type TestRequestInit } from './request/request-init.js';
import { DEBUG_TOKEN_HEADER, profilerOfKernel, type ProfileReader, type ResponseProfile } from './response/response-profile.js';
import { TestResponse } from './response/test-response.js';
import { InProcessTransport } from './transport/in-process-transport.js';
import { SocketTransport } from './transport/socket-transport.js';
import type { ReceivedResponse, Transport } from './transport/transport.js';

export interface TestClientOptions {
  /**
   * Where requests are addressed: the scheme (`https` reads as a TLS connection), and the host and
   * port sent as `Host`. Default `http://localhost`.
   */
  baseUrl?: string;
  /** The node adapter's `trustedProxies`: whose `X-Forwarded-*` are believed. Default none. */
  trustedProxies?: readonly string[];
  /** The node adapter's `trustedHosts`: the hosts the app answers for (400 for any other). Default any. */
  trustedHosts?: NodeAdapterOptions['trustedHosts'];
  /** The address requests come from, in process (over `socket()` it is 127.0.0.1). Default `127.0.0.1`. */
  clientIp?: string;
  /** The node adapter's `bodyLimit` (413 past it). Default the adapter's, 1 MiB. */
  bodyLimit?: number;
  /** Follow 301/302/303/307/308 answers (at most 10). Default false. */
  followRedirects?: boolean;
  /** Keep cookies across requests. Default true. */
  cookies?: boolean;
  /**
   * Where `response.profile` is read: the app's `Profiler`. Default: the profiler `registerProfiler`
   * put on the kernel's dispatcher, if any. `null`: never read profiles.
   */
  profiler?: ProfileReader | null;
  /** The rest of the node adapter options the app is served with (`baseUrl` as its public origin, `bodyTimeout`, `logger`…). */
  adapter?: NodeAdapterOptions;
}

/** What a token issuer must do for `loginAs`: `JwtTokenIssuer` of `@switchboard/security` fits. */
export interface TokenIssuer<User> {
  issueToken(user: User): Promise<string> | string;
}

/** @internal What a client and the clients derived from it share. */
export interface ClientState {
  readonly kernel: HttpKernelInterface;
  readonly options: TestClientOptions;
  readonly base: URL;
  readonly transport: Transport;
  readonly jar: CookieJar;
  readonly profiler: ProfileReader | null;
}

/**
 * `kernel` behind a client that calls it in process, with the node adapter's request rules. Throws
 * at once when a route declares what no registered listener acts on (`HttpKernel.checkDeclarations`).
 */
export function createTestClient(kernel: HttpKernelInterface, options: TestClientOptions = {}): TestClient {
  kernel.checkDeclarations?.();
  const transport = new InProcessTransport(kernel, adapterOptionsOf(options), options.clientIp ?? '127.0.0.1');
  return new TestClient(stateFor(kernel, options, transport), []);
}

function stateFor(kernel: HttpKernelInterface, options: TestClientOptions, transport: Transport): ClientState {
  const base = new URL(options.baseUrl ?? 'http://localhost');
  if (base.pathname !== '/' || base.search !== '' || base.username !== '') {
    throw new TypeError(`baseUrl "${options.baseUrl}" must be an origin (scheme, host, optional port).`);
  }
  const profiler = options.profiler === undefined ? profilerOfKernel(kernel as { dispatcher?: object }) : options.profiler;
  return { kernel, options, base, transport, jar: new CookieJar(), profiler };
}

function adapterOptionsOf(options: TestClientOptions): NodeAdapterOptions {
  return {
    ...options.adapter,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.trustedProxies === undefined ? {} : { trustedProxies: options.trustedProxies }),
    ...(options.trustedHosts === undefined ? {} : { trustedHosts: options.trustedHosts }),
  };
}

/**
 * Sends requests to a kernel and keeps what a browser-like client keeps between them (cookies).
 * Made by `createTestClient` (in process) or `client.socket()` (over 127.0.0.1); both answer
 * with the same `TestResponse`.
 */
export class TestClient {
  readonly #state: ClientState;
  readonly #headers: ReadonlyArray<readonly [string, string]>;

  /** @internal Use `createTestClient`. */
  constructor(state: ClientState, headers: ReadonlyArray<readonly [string, string]>) {
    this.#state = state;
    this.#headers = headers;
  }

  /** The cookie jar (shared with the clients `withHeaders`, `withBearer` and `loginAs` return). */
  get cookies(): CookieJar {
    return this.#state.jar;
  }

  /**
   * Where the server of a `socket()` client listens (`http://127.0.0.1:<port>`), for a raw client
   * of a test's own; `null` in process.
   */
  get serverUrl(): string | null {
    return this.#state.transport.serverUrl;
  }

  /** The origin requests are addressed to. */
  get baseUrl(): string {
    return this.#state.base.origin;
  }

  get(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request('GET', path, init);
  }

  post(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request('POST', path, init);
  }

  put(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request('PUT', path, init);
  }

  patch(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request('PATCH', path, init);
  }

  delete(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request('DELETE', path, init);
  }

  head(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request('HEAD', path, init);
  }

  options(path: string, init?: TestRequestInit): Promise<TestResponse> {
    return this.request('OPTIONS', path, init);
  }

  /**
   * Requests a route by name: the path is `router.generate(name, params)`, so the name and the
   * parameters are checked as `generate` checks them (`client.route(router, 'GET', 'item', { id: 7 })`).
   * The last argument is the request's init.
   */
  route<Routes extends object, Name extends RouteName<Routes>>(
    router: Router<Routes>,
    method: string,
    name: Name,
    ...args: GenerateArguments<Routes, Name, TestRequestInit>
  ): Promise<TestResponse> {
    const [params, init] = args as [Readonly<Record<string, unknown>> | undefined, TestRequestInit | undefined];
    return this.request(method, (router as Router).generate(name, params), init);
  }

  /**
   * Sends one request. `path` is sent exactly as written (`/a/../b` stays so, as on the wire);
   * an absolute URL addresses another host. Redirects are followed when asked.
   */
  async request(method: string, path: string, init: TestRequestInit = {}): Promise<TestResponse> {
    const state = this.#state;
    const encoded = await encodeRequest(init, this.#headers);
    let target = withQuery(path, init.query);
    let url = addressOf(target, state.base);
    if (/^https?:\/\//i.test(target)) target = url.pathname + url.search;
    else if (target !== '*' && !target.startsWith('/')) target = `/${target}`;
    let current = { method: method.toUpperCase(), headers: encoded.headers, body: encoded.body };
    const follow = init.followRedirects ?? state.options.followRedirects ?? false;
    const redirects: RedirectStep[] = [];
    for (;;) {
      const received = await this.#send(current.method, url, target, current.headers, current.body);
      const location = received.headers.get('location');
      if (!follow || !isFollowedRedirect(received.status, location)) return this.#response(received, url, redirects);
      const next = new URL(location, url);
      redirects.push({ status: received.status, from: url.href, to: next.href });
      if (redirects.length > MAX_REDIRECTS) throw new TooManyRedirectsError(redirects);
      const { method: nextVerb, keepsBody } = nextMethod(received.status, current.method);
      current = {
        method: nextVerb,
        // Credentials stay with their origin; a body's description goes with the body.
        headers: current.headers.filter(
          ([name]) => (keepsBody || !BODY_HEADERS.has(name)) && (next.origin === url.origin || name !== 'authorization'),
        ),
        body: keepsBody ? current.body : null,
      };
      url = next;
      target = next.pathname + next.search;
    }
  }

  async #send(
    method: string,
    url: URL,
    target: string,
    headers: Array<[string, string]>,
    body: Uint8Array | null,
  ): Promise<ReceivedResponse> {
    const state = this.#state;
    const sent: Array<[string, string]> = [];
    if (!headers.some(([name]) => name === 'host')) sent.push(['host', url.host]);
    sent.push(...headers.filter(([name]) => name !== 'cookie' || state.options.cookies === false));
    if (state.options.cookies !== false) {
      const cookie = state.jar.headerFor(url);
      const own = headers.filter(([name]) => name === 'cookie').map(([, value]) => value);
      const all = [...own, ...(cookie === undefined ? [] : [cookie])];
      if (all.length > 0) sent.push(['cookie', all.join('; ')]);
    }
    const received = await state.transport.send({ method, url, target, headers: sent, body });
    if (state.options.cookies !== false) for (const field of received.headers.getSetCookie()) state.jar.store(field, url);
    return received;
  }

  async #response(received: ReceivedResponse, url: URL, redirects: RedirectStep[]): Promise<TestResponse> {
    return new TestResponse({
      status: received.status,
      headers: received.headers,
      body: received.body,
      url: url.href,
      request: received.request,
      redirects,
      profile: await this.#profileOf(received),
    });
  }

  /**
   * The main request's profile, saved at `kernel.terminate`: waited for only when there is one to
   * read. `x-debug-token` names the request that produced the response, which is the error page's
   * sub-request when the main request failed; its parent is then the main request's profile.
   */
  async #profileOf(received: ReceivedResponse): Promise<ResponseProfile | null> {
    const profiler = this.#state.profiler;
    const token = received.headers.get(DEBUG_TOKEN_HEADER);
    if (profiler === null || token === null) return null;
    await received.terminated;
    let profile = await profiler.loadProfile(token);
    for (let depth = 0; depth < MAX_SUB_REQUEST_DEPTH && profile !== null && profile.parentToken !== null; depth++) {
      const parent = await profiler.loadProfile(profile.parentToken);
      if (parent === null) break;
      profile = parent;
    }
    return profile;
  }

  /** A client that also sends `headers` on every request (a header of the same name in a request's `init` wins). */
  withHeaders(headers: HeaderFields): TestClient {
    const added = headerPairs(headers);
    const names = new Set(added.map(([name]) => name));
    return new TestClient(this.#state, [...this.#headers.filter(([name]) => !names.has(name)), ...added]);
  }

  /** A client that sends `Authorization: Bearer <token>`. */
  withBearer(token: string): TestClient {
    return this.withHeaders({ authorization: `Bearer ${token}` });
  }

  /** A client logged in as `user`: a token minted by `issuer` (no password checked), sent as a bearer token. */
  async loginAs<User>(user: User, issuer: TokenIssuer<User>): Promise<TestClient> {
    return this.withBearer(await issuer.issueToken(user));
  }

  /** Resolves once every `kernel.terminate` scheduled so far has run (profiles saved, logs written). */
  settled(): Promise<void> {
    return this.#state.transport.settled();
  }

  /**
   * A client with the same options and default headers (and a jar of its own) whose requests go
   * over a real socket: the kernel served by `serve()` on 127.0.0.1, any free port, reached with
   * node's HTTP client. `close()` stops that server.
   */
  async socket(): Promise<TestClient> {
    const { kernel, options } = this.#state;
    const transport = await SocketTransport.start(kernel, adapterOptionsOf(options));
    return new TestClient(stateFor(kernel, options, transport), this.#headers);
  }

  /** Waits for pending `kernel.terminate` work; a socket client also stops its server. */
  close(): Promise<void> {
    return this.#state.transport.close();
  }
}

/** Sub-requests nest far less deeply than this; the bound only guards against a cycle in stored profiles. */
const MAX_SUB_REQUEST_DEPTH = 8;

/** Fields that describe a body, dropped with it when a redirect turns the method into GET. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']);

/** The URL a target addresses: absolute as is, else on the base origin (a path like `//x` stays a path). */
function addressOf(target: string, base: URL): URL {
  if (/^https?:\/\//i.test(target)) return new URL(target);
  return new URL(base.origin + (target.startsWith('/') ? target : `/${target}`));
}
