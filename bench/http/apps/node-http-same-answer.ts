// node:http writing, by hand, the answer Switchboard writes: the same header lines (`cache-control`
// on every response, `vary` on the error page; node adds its own `Date`) and the JSON text made
// for each request, as Switchboard and Fastify make it. Nothing else is done, so no server giving
// this answer can cost less: the floor under Switchboard, set by node and the answer itself.
// http-inprocess.bench.ts checks that the two answers stay the same.
import type { RequestListener } from 'node:http';
import { HELLO_BODY, HELLO_PATH } from '../contract.js';

export function createListener(): RequestListener {
  return (req, res) => {
    if (req.method === 'GET' && req.url === HELLO_PATH) {
      const text = JSON.stringify(HELLO_BODY);
      res.writeHead(200, {
        'content-type': 'application/json',
        'cache-control': 'no-cache, private',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
      return;
    }
    // The problem document as the error controller writes it, made for this request.
    const text = JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not Found' });
    res.writeHead(404, {
      'content-type': 'application/problem+json',
      vary: 'Accept',
      'cache-control': 'no-cache, private',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  };
}
