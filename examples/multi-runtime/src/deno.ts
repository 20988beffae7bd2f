import { createFetchHandler } from '@switchboard/node-adapter/fetch';
import { BODY_LIMIT, createApp, listenOptions, listeningLine } from './app.ts';
import { stopOnSignal } from './stop-on-signal.ts';

/** What this entry uses of Deno's global (the project's type check runs without Deno's types). */
declare const Deno: {
  readonly env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen: (address: { port: number }) => void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): { shutdown(): Promise<void> };
  addSignalListener(signal: 'SIGTERM' | 'SIGINT', listener: () => void): void;
  exit(code: number): never;
};

// Deno: its own server calls the fetch handler; the client address comes with each request.
const { port, host } = listenOptions(Deno.env.toObject());
const clientAddresses = new WeakMap<Request, string>();
const handler = createFetchHandler(createApp(), { bodyLimit: BODY_LIMIT, clientIp: (request) => clientAddresses.get(request) });
const server = Deno.serve(
  { port, hostname: host, onListen: (address) => console.log(listeningLine('deno', host, address.port)) },
  (request, info) => {
    clientAddresses.set(request, info.remoteAddr.hostname);
    return handler(request);
  },
);

// SIGTERM (and Ctrl-C): finish what is in flight, run kernel.terminate, then exit.
const stop = stopOnSignal(
  'deno',
  handler,
  () => server.shutdown(),
  (code) => Deno.exit(code),
);
Deno.addSignalListener('SIGTERM', stop);
Deno.addSignalListener('SIGINT', stop);
