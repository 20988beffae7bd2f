import { execFile } from 'node:child_process';
import http2 from 'node:http2';
import https from 'node:https';

export interface SimpleResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with the `node:http2` client (self-signed certificates accepted). */
export function http2Request(origin: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const client = http2.connect(origin, { rejectUnauthorized: false });
    client.on('error', reject);
    const stream = client.request({ ':path': path, ':method': method, ...headers });
    let status = 0;
    let received: Record<string, string | string[] | undefined> = {};
    let body = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => {
      status = Number(h[':status']);
      received = Object.fromEntries(Object.entries(h).filter(([name]) => !name.startsWith(':')));
    });
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => {
      client.close();
      resolve({ status, headers: received, body });
    });
    stream.on('error', reject);
  });
}

/** One HTTPS HTTP/1.1 request with `node:https` (self-signed certificates accepted). */
export function https1Request(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { method, headers, rejectUnauthorized: false, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** `curl -i` with the given arguments; resolves with status, lower-cased headers and body. */
export function curl(args: string[]): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/curl', ['-s', '-i', '--max-time', '10', ...args], { encoding: 'latin1' }, (error, stdout) => {
      if (error) return reject(error);
      const split = stdout.indexOf('\r\n\r\n');
      const head = stdout.slice(0, split).split('\r\n');
      const headers: Record<string, string | string[] | undefined> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).toLowerCase();
        const value = line.slice(colon + 1).trim();
        const existing = headers[name];
        headers[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
      }
      resolve({ status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0), headers, body: stdout.slice(split + 4) });
    });
  });
}

export const curlAvailable = await new Promise<boolean>((resolve) =>
  execFile('/usr/bin/curl', ['--version'], (error) => resolve(error === null)),
);

/** A token of a demo user (password `<username>-password`) from the host at `base`, over its socket. */
export async function loginToken(base: string, username: string): Promise<string> {
  const login = await fetch(`${base}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: `${username}-password` }),
  });
  if (login.status !== 200) throw new Error(`Login of ${username} answered ${login.status}.`);
  return ((await login.json()) as { token: string }).token;
}
