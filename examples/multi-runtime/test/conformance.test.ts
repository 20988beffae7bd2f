import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../../../test/kit/raw-http.js';

/**
 * The same HTTP checks against the example app served by each runtime: Node (the node:http
 * adapter), Bun and Deno (the fetch handler). Each server is started exactly as its
 * `start:<runtime>` script starts it, with `PORT=0`, and reports the port it got.
 */
const example = fileURLToPath(new URL('..', import.meta.url));
const bin = join(example, 'node_modules/.bin');
const scripts = (JSON.parse(readFileSync(join(example, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

type Runtime = 'node' | 'bun' | 'deno';

/** Why a runtime cannot run here, or null when it can. */
function unavailable(runtime: Runtime): string | null {
  if (runtime === 'node') return null;
  if (!existsSync(join(bin, runtime))) return `${runtime} is not installed (pnpm install in the repository)`;
  const version = spawnSync(join(bin, runtime), ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (version.status === 0) return null;
  return `${runtime} --version failed: ${(version.stderr || version.stdout || String(version.error)).trim().split('\n')[0]}`;
}

/** What differs between the runtimes, as README.md states it. */
const RUNTIME_DIFFERENCES: Record<Runtime, { dotSegments: number; contentTypeHeader: string }> = {
  // The node adapter takes the request target as sent: `/x/../hello` is not `/hello`.
  node: { dotSegments: 404, contentTypeHeader: 'content-type' },
  // Bun and Deno hand the fetch handler a URL their parser normalised: `/x/../hello` is `/hello`.
  bun: { dotSegments: 200, contentTypeHeader: 'Content-Type' },
  deno: { dotSegments: 200, contentTypeHeader: 'content-type' },
};

interface StartedServer {
  readonly origin: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything the process printed so far, stdout and stderr. */
  output(): string;
}

/** Runs `start:<runtime>` as pnpm would (through `sh`, the example's bins first on PATH) and waits for its listening line. */
async function start(runtime: Runtime): Promise<StartedServer> {
  const child = spawn('sh', ['-c', scripts[`start:${runtime}`]!], {
    cwd: example,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, PORT: '0', HOST: '127.0.0.1', NO_COLOR: '1' },
    // A group of its own: the deno package's launcher runs the binary as a child, and the whole group is stopped.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const listening = new RegExp(`^${runtime} listening on http://127\\.0\\.0\\.1:(\\d+)$`, 'm');
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const found = listening.exec(output);
      if (found !== null) resolve(Number(found[1]));
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`${runtime} exited with ${code} before listening:\n${output}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, port, child, output: () => output };
}

/**
 * The runtime itself, as a process manager would signal it: the bun and deno packages' launchers
 * start their binary as a child (followed down to the last one); node is the started process (its
 * own children are tsx's compiler service).
 */
function runtimeProcess(runtime: Runtime, pid: number): number {
  return runtime === 'node' ? pid : lastDescendant(pid);
}

function lastDescendant(pid: number): number {
  const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .filter(Boolean);
  return children.length === 0 ? pid : lastDescendant(Number(children[0]));
}

function stop(server: StartedServer | undefined): void {
  if (server?.child.pid !== undefined && server.child.exitCode === null) process.kill(-server.child.pid, 'SIGKILL');
}

/** The chunks of a chunked HTTP/1.1 body, as framed on the wire. */
function wireChunks(raw: string): string[] {
  let rest = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  const chunks: string[] = [];
  for (;;) {
    const line = /^([0-9a-fA-F]+)[^\r\n]*\r\n/.exec(rest);
    if (line === null) return chunks;
    const size = Number.parseInt(line[1]!, 16);
    if (size === 0) return chunks;
    chunks.push(rest.slice(line[0].length, line[0].length + size));
    rest = rest.slice(line[0].length + size + 2);
  }
}

const runtimes: Runtime[] = ['node', 'bun', 'deno'];
const skipReasons = new Map(runtimes.map((runtime) => [runtime, unavailable(runtime)]));

// The servers start side by side (each takes seconds to load the sources), then each block uses its own.
const starting = new Map<Runtime, Promise<StartedServer>>();
beforeAll(() => {
  for (const runtime of runtimes) {
    if (skipReasons.get(runtime) !== null) continue;
    const server = start(runtime);
    server.catch(() => {}); // reported by the block that awaits it
    starting.set(runtime, server);
  }
});
afterAll(async () => {
  for (const server of starting.values()) stop(await server.catch(() => undefined));
});

for (const runtime of runtimes) {
  const reason = skipReasons.get(runtime);
  describe.skipIf(reason !== null)(`the example app on ${runtime}${reason === null ? '' : ` (skipped: ${reason})`}`, () => {
    let server: StartedServer | undefined;
    const url = (path: string): string => `${server!.origin}${path}`;
    const json = { accept: 'application/json' };

    beforeAll(async () => {
      server = await starting.get(runtime)!;
    });

    it('GET /hello answers 200 {"hello":"world"}', async () => {
      const response = await fetch(url('/hello'));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({ hello: 'world' });
    });

    it('POST /hello answers 405 with Allow: GET', async () => {
      const response = await fetch(url('/hello'), { method: 'POST', headers: json });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET');
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    });

    it('GET /hello/ redirects with 301 to /hello', async () => {
      const response = await fetch(url('/hello/'), { redirect: 'manual' });
      expect(response.status).toBe(301);
      expect(response.headers.get('location')).toBe(url('/hello'));
    });

    it('GET /nope answers 404 problem+json', async () => {
      const response = await fetch(url('/nope'), { headers: json });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({ status: 404, title: 'Not Found' });
    });

    it('GET /fail answers 500 problem+json that says nothing of the error', async () => {
      const response = await fetch(url('/fail'), { headers: json });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        detail: 'Internal Server Error',
      });
      expect(body).not.toMatch(/ledger|s3cret|password/);
      expect([...response.headers.keys()].filter((name) => name.startsWith('x-debug'))).toEqual([]);
    });

    it('GET /stream answers 200 text/plain in three chunks', async () => {
      const raw = await rawExchange(server!.port, 'GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect(raw).toMatch(/^HTTP\/1\.1 200 /);
      expect(raw).toMatch(/\r\ncontent-type: text\/plain; charset=UTF-8\r\n/i);
      expect(raw).toMatch(/\r\ntransfer-encoding: chunked\r\n/i);
      expect(wireChunks(raw)).toEqual(['one\n', 'two\n', 'three\n']);
    });

    it('POST /echo answers the JSON it received, and 413 past 1 KiB', async () => {
      const sent = { text: 'x'.repeat(900), list: [1, 2, 3] };
      const echoed = await fetch(url('/echo'), {
        method: 'POST',
        body: JSON.stringify(sent),
        headers: { 'content-type': 'application/json' },
      });
      expect(echoed.status).toBe(200);
      expect(await echoed.json()).toEqual(sent);

      const tooLarge = await fetch(url('/echo'), { method: 'POST', body: `"${'x'.repeat(1023)}"`, headers: json });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.headers.get('content-type')).toBe('application/problem+json');
    });

    it('POST /echo answers 400 to a body that is not JSON', async () => {
      const response = await fetch(url('/echo'), { method: 'POST', body: '{"unfinished', headers: json });
      expect(response.status).toBe(400);
    });

    it(`differs as documented: dot segments, header name casing (${runtime})`, async () => {
      const expected = RUNTIME_DIFFERENCES[runtime];
      const raw = await rawExchange(server!.port, 'GET /x/../hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect(Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1])).toBe(expected.dotSegments);
      expect(raw).toContain(`\r\n${expected.contentTypeHeader}: `);
    });

    it('has printed no runtime warning', () => {
      expect(server!.output()).not.toMatch(/warn|legacy|deprecat|sloppy/i);
    });

    // Last: the server is gone afterwards.
    it('on SIGTERM finishes the request in flight, then exits 0', async () => {
      const { child, port } = server!;
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const socket = net.connect({ port, host: '127.0.0.1' });
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
      });
      const closed = once(socket, 'close');
      await once(socket, 'connect');
      socket.write('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      // `/slow` answers `started` at once and `finished` only once the shutdown began.
      while (!received.includes('started\n')) await once(socket, 'data');

      process.kill(runtimeProcess(runtime, child.pid!), 'SIGTERM');
      await closed;

      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      expect(received).toContain('finished\n');
      expect(await exited).toEqual([0, null]);
    });
  });
}
