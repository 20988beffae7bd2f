import type { RequestListener } from 'node:http';
import express from 'express';
import { HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

export function createListener(): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.get(HELLO_PATH, (_req, res) => {
    res.json(HELLO_BODY);
  });
  app.use((_req, res) => {
    res.status(404).type('application/problem+json').send(JSON.stringify(NOT_FOUND_BODY));
  });
  return app as unknown as RequestListener;
}
