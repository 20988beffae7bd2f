import { createFetchHandler } from '@switchboard/node-adapter/fetch';
import { BODY_LIMIT, createApp, listenOptions, listeningLine } from './app.ts';
import { stopOnSignal } from './stop-on-signal.ts';

/** What this entry uses of Bun's global (the project's type check runs without Bun's types). */
declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Promise<Response> }): BunServer;
};
interface BunServer {
  readonly port: number;
  requestIP(request: Request): { address: string } | null;
  /** Stops accepting and closes idle connections (the promise settles once open ones closed). */
  stop(): Promise<void>;
}

// Bun: its own server calls the fetch handler; the client address comes from the server.
const { port, host } = listenOptions(Bun.env);
const handler = createFetchHandler(createApp(), { bodyLimit: BODY_LIMIT, clientIp: (request) => server.requestIP(request)?.address });
const server = Bun.serve({ port, hostname: host, fetch: handler });
console.log(listeningLine('bun', host, server.port));

// SIGTERM (and Ctrl-C): finish what is in flight, run kernel.terminate, then exit.
const stop = stopOnSignal(
  'bun',
  handler,
  () => server.stop(),
  (code) => process.exit(code),
);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
