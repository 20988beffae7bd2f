import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announce } from './contract.js';

/** Serves `listener` on a free port of 127.0.0.1 and announces the port (see contract.ts). */
export function listen(listener: RequestListener): void {
  const server = http.createServer(listener);
  server.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
}
