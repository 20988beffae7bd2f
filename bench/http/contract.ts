/**
 * What every server of the HTTP benchmark answers, so they do the same work:
 * `GET /hello` → 200 `application/json` `{"hello":"world"}`; any other path → 404 with a small
 * `application/problem+json` body. Each server prints `listening <port>` once ready.
 */
export const HELLO_PATH = '/hello';
export const MISSING_PATH = '/missing/robots.txt';
export const HELLO_BODY = { hello: 'world' } as const;
export const NOT_FOUND_BODY = { type: 'about:blank', title: 'Not Found', status: 404 } as const;

export function announce(port: number): void {
  process.stdout.write(`listening ${port}\n`);
}
