import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

/** Headless Chromium from the system, as every browser test starts it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export interface PageServer {
  /** `http://<address>:<port>`, IPv6 addresses bracketed. */
  readonly origin: string;
  readonly port: number;
  close(): void;
}

/**
 * Serves one HTML page (a blank one unless given) at every path on `address`, any free port: the
 * origin a browser test calls from.
 */
export async function startPageServer(address: string, html = '<!doctype html><title>caller</title>'): Promise<PageServer> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end(html);
  });
  server.listen(0, address);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    port,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
