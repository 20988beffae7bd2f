import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

/** Headless Chromium from the system, as the cross-origin browser tests start it. Test support only. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export interface PageServer {
  /** `http://<address>:<port>`, IPv6 addresses bracketed. */
  readonly origin: string;
  close(): void;
}

/** Serves one blank HTML page on `address` (any free port): the origin a browser test calls from. */
export async function startPageServer(address: string): Promise<PageServer> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end('<!doctype html><title>caller</title>');
  });
  server.listen(0, address);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
