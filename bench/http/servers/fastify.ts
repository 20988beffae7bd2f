// Fastify's own listen(), so the server has Fastify's default settings.
import { createApp } from '../apps/fastify.js';
import { announce } from '../contract.js';

const app = createApp();
await app.listen({ port: 0, host: '127.0.0.1' });
announce((app.server.address() as { port: number }).port);
