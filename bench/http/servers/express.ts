import type { AddressInfo } from 'node:net';
import express from 'express';
import { announce, HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.get(HELLO_PATH, (_req, res) => {
  res.json(HELLO_BODY);
});
app.use((_req, res) => {
  res.status(404).type('application/problem+json').send(JSON.stringify(NOT_FOUND_BODY));
});
const server = app.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
