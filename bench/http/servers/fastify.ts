import Fastify from 'fastify';
import { announce, HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

const app = Fastify({ logger: false });
app.get(HELLO_PATH, async () => HELLO_BODY);
app.setNotFoundHandler(async (_request, reply) => reply.code(404).type('application/problem+json').send(NOT_FOUND_BODY));
await app.listen({ port: 0, host: '127.0.0.1' });
announce((app.server.address() as { port: number }).port);
