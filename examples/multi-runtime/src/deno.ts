import { createFetchHandler } from '@switchboard/node-adapter/fetch';
import { BODY_LIMIT, createApp, listenOptions, listeningLine } from './app.js';

/** What this entry uses of Deno's global (the project's type check runs without Deno's types). */
declare const Deno: {
  readonly env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen: (address: { port: number }) => void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): unknown;
};

// Deno: its own server calls the fetch handler; the client address comes with each request.
const { port, host } = listenOptions(Deno.env.toObject());
const clientAddresses = new WeakMap<Request, string>();
const handler = createFetchHandler(createApp(), { bodyLimit: BODY_LIMIT, clientIp: (request) => clientAddresses.get(request) });
Deno.serve({ port, hostname: host, onListen: (address) => console.log(listeningLine('deno', host, address.port)) }, (request, info) => {
  clientAddresses.set(request, info.remoteAddr.hostname);
  return handler(request);
});
