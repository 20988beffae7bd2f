import { createFetchHandler } from '@switchboard/node-adapter/fetch';
import { BODY_LIMIT, createApp, listenOptions, listeningLine } from './app.js';

/** What this entry uses of Bun's global (the project's type check runs without Bun's types). */
declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Promise<Response> }): BunServer;
};
interface BunServer {
  readonly port: number;
  requestIP(request: Request): { address: string } | null;
}

// Bun: its own server calls the fetch handler; the client address comes from the server.
const { port, host } = listenOptions(Bun.env);
const handler = createFetchHandler(createApp(), { bodyLimit: BODY_LIMIT, clientIp: (request) => server.requestIP(request)?.address });
const server = Bun.serve({ port, hostname: host, fetch: handler });
console.log(listeningLine('bun', host, server.port));
