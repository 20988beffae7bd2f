import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RedisClientType } from '@redis/client';

const BINARY = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path)) ?? 'redis-server';

export type RedisInspector = RedisClientType<{}, {}, {}, 3>;

/** A private `redis-server` on a free 127.0.0.1 port, keeping nothing on disk; `stop`/`start` simulate an outage. */
export class RedisServer {
  readonly directory = mkdtempSync(join(tmpdir(), 'profiler-redis-'));
  #process: ChildProcess | null = null;
  /** Clients that paused the server: dropped when it restarts. */
  readonly #pausing: RedisInspector[] = [];

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    for (let attempt = 0; ; attempt++) {
      const server = new RedisServer(await freePort());
      try {
        await server.start();
        return server;
      } catch (error) {
        // Another process took the port between our probe and redis-server's bind.
        server.#removeDirectory();
        if (attempt >= 3) throw error;
      }
    }
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server (again, on the same port) and resolves once it accepts connections. */
  async start(): Promise<void> {
    const child = spawn(
      BINARY,
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.directory,
        '--daemonize',
        'no',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const ready = new Promise<void>((resolve, reject) => {
      child.on('error', (error) =>
        reject(new Error(`Cannot run ${BINARY} (Debian: apt-get install redis-server; scripts/system-deps.sh does it): ${error.message}`)),
      );
      child.on('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) resolve();
      });
    });
    this.#process = child;
    await ready;
  }

  /** Stops the server at once (no save): clients see the connection drop. */
  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = null;
    if (child === null || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /**
   * Pauses every client (`CLIENT PAUSE <ms> ALL`): connections stay open and no command is answered.
   * `stillPaused()` says whether a `PING` sent right after the pause is still unanswered. `CLIENT
   * UNPAUSE` would wait for the pause itself: `restart()` ends it.
   */
  async pauseAll(ms: number): Promise<{ stillPaused(): boolean }> {
    const client = await this.inspector();
    this.#pausing.push(client);
    await client.sendCommand(['CLIENT', 'PAUSE', String(ms), 'ALL']);
    let answered = false;
    client.ping().then(
      () => (answered = true),
      () => (answered = true),
    );
    return { stillPaused: () => !answered };
  }

  /** Stops and starts the server (keeping nothing): ends a pause. */
  async restart(): Promise<void> {
    await this.stop();
    for (const client of this.#pausing.splice(0)) client.destroy();
    await this.start();
  }

  async close(): Promise<void> {
    for (const client of this.#pausing.splice(0)) client.destroy();
    await this.stop();
    this.#removeDirectory();
  }

  /** A plain client to look inside Redis; the caller closes it. */
  async inspector(): Promise<RedisInspector> {
    const client: RedisInspector = createClient({ url: this.url });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  #removeDirectory(): void {
    rmSync(this.directory, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
