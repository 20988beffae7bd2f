import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PayloadTooLargeHttpError, Request, type HttpKernel, type RequestBody, type Response } from '@switchboard/http-kernel';

export interface ServedKernel {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * A minimal node:http host for a kernel, as the node adapter does it: the test drives the kernel
 * through a real socket. The body is read lazily; past `adapterLimit` it is a 413 and the rest of
 * the upload is drained, so the client still gets the answer.
 */
export async function serveKernel(kernel: HttpKernel, adapterLimit = 8 * 1024 * 1024): Promise<ServedKernel> {
  const server = createServer((incoming, outgoing) => {
    void handle(kernel, incoming, outgoing, adapterLimit);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function handle(kernel: HttpKernel, incoming: IncomingMessage, outgoing: ServerResponse, limit: number): Promise<void> {
  const target = incoming.url ?? '/';
  const queryAt = target.indexOf('?');
  const request = new Request({
    method: incoming.method ?? 'GET',
    host: '127.0.0.1',
    port: incoming.socket.localPort ?? 80,
    path: queryAt < 0 ? target : target.slice(0, queryAt),
    query: queryAt < 0 ? '' : target.slice(queryAt + 1),
    headers: incoming.headers,
    clientIp: incoming.socket.remoteAddress ?? '127.0.0.1',
    protocolVersion: incoming.httpVersion,
    body: lazyBody(incoming, limit),
  });
  const response = await kernel.handle(request);
  await write(outgoing, response, request.method === 'HEAD');
  if (!incoming.complete) incoming.resume();
  await kernel.terminate(request, response);
}

function lazyBody(incoming: IncomingMessage, limit: number): RequestBody {
  let read: Promise<Uint8Array> | undefined;
  // Buffers the upload on first use. Past the limit it keeps draining (discarding) instead of
  // destroying the socket, so the client still reads the 413.
  const bytes = (): Promise<Uint8Array> =>
    (read ??= new Promise<Uint8Array>((resolve, reject) => {
      const parts: Buffer[] = [];
      let total = 0;
      let over = false;
      incoming.on('data', (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > limit) over = true;
        if (!over) parts.push(chunk);
      });
      incoming.on('end', () => (over ? reject(new PayloadTooLargeHttpError('Request body over the adapter limit.')) : resolve(Buffer.concat(parts))));
      incoming.on('error', reject);
    }));
  async function* stream(): AsyncGenerator<Uint8Array> {
    yield await bytes();
  }
  return { stream, bytes, text: async () => Buffer.from(await bytes()).toString('utf8') };
}

async function write(outgoing: ServerResponse, response: Response, head: boolean): Promise<void> {
  outgoing.writeHead(response.status, response.headers.toObject());
  const body = response.body;
  if (head || body === null || response.isEmpty) return void outgoing.end();
  if (typeof body === 'string' || body instanceof Uint8Array) return void outgoing.end(body);
  for await (const chunk of body) outgoing.write(chunk);
  outgoing.end();
}
