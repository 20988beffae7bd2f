import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Request, type HttpKernel } from '@switchboard/http-kernel';

/**
 * A kernel behind a real node:http server on 127.0.0.1, calling `kernel.terminate` once the
 * response is sent (profiles are saved there). Test support until the node-adapter is wired.
 */
export async function serveKernel(kernel: HttpKernel): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void (async () => {
      const request = toRequest(req);
      const response = await kernel.handle(request);
      res.writeHead(response.status, response.headers.toObject());
      res.end(typeof response.body === 'string' || response.body instanceof Uint8Array ? response.body : '');
      await once(res, 'finish');
      await kernel.terminate(request, response);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function toRequest(req: IncomingMessage): Request {
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  const headers: Array<[string, string]> = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  return new Request({
    method: req.method ?? 'GET',
    host: '127.0.0.1',
    port: req.socket.localPort ?? 80,
    path: queryAt < 0 ? target : target.slice(0, queryAt),
    query: queryAt < 0 ? '' : target.slice(queryAt + 1),
    headers,
    clientIp: req.socket.remoteAddress ?? '127.0.0.1',
  });
}
