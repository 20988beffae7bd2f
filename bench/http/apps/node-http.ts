// Baseline: node:http with a hand-written if/else, the least work a server can do.
import type { RequestListener } from 'node:http';
import { HELLO_BODY, HELLO_PATH, NOT_FOUND_BODY } from '../contract.js';

export function createListener(): RequestListener {
  const hello = JSON.stringify(HELLO_BODY);
  const notFound = JSON.stringify(NOT_FOUND_BODY);
  return (req, res) => {
    if (req.method === 'GET' && req.url === HELLO_PATH) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(hello) });
      res.end(hello);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(notFound) });
    res.end(notFound);
  };
}
