import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PNPM_START, startHostProcess, type HostProcess } from './support/start-host.js';

/**
 * Stopping the host as a process manager (SIGTERM) or a terminal (Ctrl-C under `pnpm start`: SIGINT
 * to the whole process group, which each pnpm passes on to node again) does: requests in flight get an answer, new
 * connections are refused, the process exits 0.
 */

interface Answer {
  status: number;
  body: string;
}

/** One request on its own connection; rejects if the connection ends without a whole answer. */
function request(url: string, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      `${url}${path}`,
      { method, agent: false, headers: body === undefined ? {} : { 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: text }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The shipped users, hashed at the production cost: a login is still being checked when the signal arrives. */
const SHIPPED_USERS = { SECURITY_USERS_FILE: fileURLToPath(new URL('../config/security-users.json', import.meta.url)) };

/**
 * Production mode with the shipped users; login throttling off, since six logins of one user from
 * one address are sent at once to be in flight when the host stops.
 */
const SHUTDOWN_HOST_ENV = { APP_DEBUG: '0', API_HOST_CONFIG: '', ALLOW_DEMO_USERS: '1', LOGIN_THROTTLING: 'off', ...SHIPPED_USERS };

const login = (url: string) => request(url, 'POST', '/api/token', JSON.stringify({ username: 'demo', password: 'demo-password' }));

/** Resolves once a new TCP connection to `port` is refused. */
async function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Waits until the host has logged `count` matches of the login route: the requests are in its hands. */
async function loginsReceived(host: HostProcess, count: number): Promise<void> {
  await expect
    .poll(() => host.log().split('Matched route "api_token"').length - 1, { timeout: 20_000, interval: 20 })
    .toBeGreaterThanOrEqual(count);
}

/** A login answered during shutdown: its token, or the documented 503 when time ran out. */
function expectAnswered(answer: Answer): void {
  expect([200, 503]).toContain(answer.status);
  if (answer.status === 200) expect(JSON.parse(answer.body)).toMatchObject({ token_type: 'Bearer' });
  else expect(answer.body.length).toBeGreaterThan(0);
}

describe('stopping the host process', () => {
  it('on SIGTERM: answers the logins and requests in flight, refuses new connections, exits 0', async () => {
    const host = await startHostProcess(SHUTDOWN_HOST_ENV);
    try {
      const url = await host.url;
      const port = Number(new URL(url).port);
      const logins = Array.from({ length: 6 }, () => login(url));
      const listing = request(url, 'GET', '/api/items');
      await loginsReceived(host, 6);

      host.child.kill('SIGTERM');
      await expect.poll(() => refusesConnections(port), { timeout: 10_000, interval: 20 }).toBe(true);
      for (const answer of await Promise.all(logins)) expectAnswered(answer);
      expect((await listing).status).toBe(200);
      expect(await host.exited).toBe(0);
      expect(host.log()).toContain('SIGTERM received');
    } finally {
      host.child.kill('SIGKILL');
    }
  }, 90_000);

  it('on Ctrl-C under `pnpm start` (SIGINT to the whole process group): one shutdown, logged once, exit 0', async () => {
    // As a terminal does it: the signal goes to every process of the foreground group (npx, both
    // pnpm and node), and each pnpm passes it on to node again, as SIGINT and as SIGTERM.
    const host = await startHostProcess(SHUTDOWN_HOST_ENV, PNPM_START);
    const group = -host.child.pid!;
    try {
      const url = await host.url;
      const inFlight = login(url);
      await loginsReceived(host, 1);

      process.kill(group, 'SIGINT');
      expectAnswered(await inFlight);
      await host.exited;
      await expect.poll(() => host.log(), { timeout: 20_000 }).toContain('Shutdown finished');
      const signalLines = host.log().match(/^.*\bSIG[A-Z]+\b.*$/gm) ?? [];
      expect(signalLines).toEqual([expect.stringContaining('SIGINT received: finishing in-flight requests, then exiting')]);
      expect(host.output()).not.toMatch(/ERR_|ELIFECYCLE/);
    } finally {
      try {
        process.kill(group, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    }
  }, 300_000);
});
