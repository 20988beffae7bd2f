/** Clients for what `fetch` normalises or refuses: raw bytes over TCP or TLS, exact request targets. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import tls from 'node:tls';

/**
 * Sends `text` as is over a new TCP (or TLS) connection to 127.0.0.1 and resolves with everything
 * received until the server closes, or after `waitMs` (bounded, so a test never hangs).
 */
export function rawExchange(port: number, text: string | string[], { waitMs = 3000, secure = false } = {}): Promise<string> {
  return rawExchangeDetailed(port, text, { waitMs, secure }).then((result) => result.received);
}

/** As `rawExchange`, also telling whether the server closed the connection before `waitMs`. */
export function rawExchangeDetailed(
  port: number,
  text: string | string[],
  { waitMs = 3000, secure = false } = {},
): Promise<{ received: string; closedByServer: boolean }> {
  let timedOut = false;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = secure
      ? tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] })
      : net.connect({ port, host: '127.0.0.1' });
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, waitMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      for (const part of Array.isArray(text) ? text : [text]) socket.write(part);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received: Buffer.concat(chunks).toString('latin1'), closedByServer: !timedOut });
    });
  });
}

/** Status code of the first response in a raw exchange. */
export function statusOfRaw(raw: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
}

/** One HTTP/1.x response read off a raw connection. */
export interface RawResponse {
  readonly status: number;
  /** Lower-cased names; repeated fields joined with `, `. */
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** What came back on a raw connection: the responses that parsed, and what did not. */
export interface ParsedExchange {
  readonly responses: RawResponse[];
  /** Bytes after the last complete response (a truncated or unparseable answer); `''` when all parsed. */
  readonly rest: string;
  readonly closedByServer: boolean;
}

/**
 * Sends `text` (several parts: written one after the other) and parses the HTTP/1.x responses
 * received, stopping at `responses` complete ones, when the server closes, or after `waitMs`.
 */
export async function rawResponses(
  port: number,
  text: string | string[],
  { waitMs = 5000, responses = Infinity }: { waitMs?: number; responses?: number } = {},
): Promise<ParsedExchange> {
  let received = '';
  let closedByServer = false;
  await new Promise<void>((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(finish, waitMs);
    socket.once('connect', () => {
      for (const part of Array.isArray(text) ? text : [text]) socket.write(part, 'latin1');
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (parseResponses(received).responses.length >= responses) finish();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closedByServer = true;
      finish();
    });
  });
  return { ...parseResponses(received), closedByServer };
}

/** Splits `raw` into complete responses framed by Content-Length, chunked coding, or no body (204, 304, 1xx). */
export function parseResponses(raw: string): { responses: RawResponse[]; rest: string } {
  const responses: RawResponse[] = [];
  let rest = raw;
  for (;;) {
    const head = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n((?:[^\r\n]+\r\n)*)\r\n/.exec(rest);
    if (head === null) return { responses, rest };
    const status = Number(head[1]);
    const headers: Record<string, string> = {};
    for (const line of head[2]!.split('\r\n').filter(Boolean)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    let body = '';
    let after = rest.slice(head[0].length);
    if (status === 204 || status === 304 || status < 200) {
      // No body.
    } else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const chunks = readChunked(after);
      if (chunks === null) return { responses, rest };
      ({ body, after } = chunks);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (after.length < length) return { responses, rest };
      body = after.slice(0, length);
      after = after.slice(length);
    } else {
      return { responses, rest };
    }
    responses.push({ status, headers, body });
    rest = after;
  }
}

function readChunked(text: string): { body: string; after: string } | null {
  let body = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd === -1) return null;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (Number.isNaN(size)) return null;
    at = lineEnd + 2;
    if (size === 0) return text.startsWith('\r\n', at) ? { body, after: text.slice(at + 2) } : null;
    if (text.length < at + size + 2) return null;
    body += text.slice(at, at + size);
    at += size + 2;
  }
}

/**
 * Sends a POST head declaring a body of `length` bytes (Content-Length, or chunked), then writes
 * the body as fast as the socket takes it while reading what comes back; resolves with everything
 * read when the connection ends (at most `waitMs`).
 */
export function uploadWhileReading(
  port: number,
  path: string,
  { length, chunked = false, headers = '', waitMs = 10_000 }: { length: number; chunked?: boolean; headers?: string; waitMs?: number },
): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let received = '';
    let sent = 0;
    const timer = setTimeout(() => socket.destroy(), waitMs);
    const pump = (): void => {
      while (sent < length && !socket.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, length - sent));
        sent += part.length;
        const framed = chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part;
        if (!socket.write(framed)) return void socket.once('drain', pump);
      }
    };
    socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.once('connect', () => {
      const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`;
      socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}${framing}\r\n\r\n`);
      pump();
    });
  });
}

/** A response read by node:http: status, headers as node gives them, body as UTF-8 text. */
export interface NodeHttpResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export interface NodeHttpRequestOptions {
  readonly method?: string;
  /** Sent as given: a list sends the field once per value; `host` replaces the Host header. */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: string;
}

/**
 * A request through node:http, with the request target and header values sent exactly as given
 * (fetch would normalise `..` segments, and cannot set Host or repeat a field). Ends within 10 s.
 */
export function nodeHttpRequest(base: string, path: string, options: NodeHttpRequestOptions = {}): Promise<NodeHttpResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const headers = options.headers as Record<string, string | string[]> | undefined;
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout for ${path}`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** GET with the path sent exactly as given (fetch would normalise `..` segments away). */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<NodeHttpResponse> {
  return nodeHttpRequest(base, path, { headers });
}

/** A response with its body as received: bytes, not decoded (fetch would undo a Content-Encoding). */
export interface BytesResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** GET through node:http, which leaves a compressed body compressed. Ends within 10 s. */
export function bytesGet(url: string, headers: Record<string, string> = {}): Promise<BytesResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout for ${url}`)));
    req.on('error', reject);
    req.end();
  });
}
