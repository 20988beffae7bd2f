import { serve } from '@switchboard/node-adapter';
import { BODY_LIMIT, createApp, listenOptions, listeningLine, announceShutdown } from './app.ts';

// Node: the node:http adapter, with its hardened server and graceful shutdown on SIGTERM/SIGINT.
const { port, host } = listenOptions(process.env);
const running = await serve(createApp(), { port, host, bodyLimit: BODY_LIMIT, onShutdownStart: () => announceShutdown('node') });
console.log(listeningLine('node', host, running.port));
