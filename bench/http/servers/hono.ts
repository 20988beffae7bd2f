import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { announce, HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

const app = new Hono();
app.get(HELLO_PATH, (c) => c.json(HELLO_BODY));
app.notFound((c) => c.json(NOT_FOUND_BODY, 404, { 'content-type': 'application/problem+json' }));
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => announce(info.port));
