import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { scryptPasswordHasher } from '@switchboard/security';
import { securityConfigFromEnv } from '../src/security/security-config.js';
import { startHostInProcess, startHostProcess, type HostProcess, type StartedHost } from './support/start-host.js';

/**
 * Password checks are bounded (one at a time, eight waiting): a burst of logins gets 503 with
 * Retry-After beyond that, logins whose clients left are never hashed, and token verification
 * answers meanwhile. Production mode, real server, real clients.
 *
 * The tests hold a check in progress by stopping the password checker process (SIGSTOP) rather
 * than by counting on a hash to be slow, and use cheap hashes: what they prove is the queue's
 * behaviour, which must not depend on how busy the machine is (a check at nice 19 on a busy
 * machine gets little CPU).
 */
const scratch = mkdtempSync(join(tmpdir(), 'api-host-logins-'));
const keys = securityConfigFromEnv({}, new MemoryLogger(), scratch);
const CHEAP_HASH = { N: 2 ** 10, r: 8, p: 1 };
const usersFile = join(scratch, 'cheap-users.json');
let host: StartedHost;
let token: string;

beforeAll(async () => {
  writeFileSync(
    usersFile,
    JSON.stringify({
      users: [{ username: 'demo', roles: ['ROLE_USER'], password: await scryptPasswordHasher.hash('demo-password', CHEAP_HASH) }],
    }),
  );
  host = await startHostInProcess({
    APP_DEBUG: '0',
    JWT_SECRET_KEY: keys.privateKeyPath,
    JWT_PUBLIC_KEY: keys.publicKeyPath,
    JWT_PASSPHRASE: keys.passphrase!,
    SECURITY_USERS_FILE: usersFile,
    // What is tested is the hashing queue: bursts of logins from one address, which throttling would refuse first.
    LOGIN_THROTTLING: 'off',
  });
  token = ((await (await login('demo', 'demo-password')).json()) as { token: string }).token;
});

afterAll(async () => {
  await host?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function login(username: string, password: string, target: StartedHost = host, address?: string): Promise<Response> {
  return fetch(`${target.running.url}/api/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(address === undefined ? {} : { 'x-forwarded-for': address }),
    },
    body: JSON.stringify({ username, password }),
  });
}

const logLines = (text: string): number => host.logger.records.filter((record) => record.message.includes(text)).length;

/** The queue's refusals as its warnings count them: at most a line a second, each with the `count` it stands for. */
function refusalsLogged(target: StartedHost): { lines: number; refusals: number } {
  const lines = target.logger.records.filter((record) => record.message.endsWith('the queue is full.'));
  return { lines: lines.length, refusals: lines.reduce((sum, record) => sum + Number(record.context['count']), 0) };
}

/** Runs `during` with the in-process host's password checker stopped, and resumes it after. */
async function withCheckerStopped<T>(during: () => Promise<T>, target: StartedHost = host): Promise<T> {
  const started = target.logger.records
    .map((record) => /Password checker process (\d+) started/.exec(record.message))
    .filter((match) => match !== null);
  const pid = Number(started.at(-1)![1]);
  process.kill(pid, 'SIGSTOP');
  try {
    return await during();
  } finally {
    process.kill(pid, 'SIGCONT');
  }
}

it('a burst of logins beyond the queue gets 503 with Retry-After; /api/me answers meanwhile', async () => {
  const queue = host.app.passwordHashing;
  const burst = await withCheckerStopped(async () => {
    const burst = Array.from({ length: 20 }, () => login('demo', 'wrong-password'));
    // One check running (held by the stopped checker), eight waiting, the other eleven refused.
    await expect.poll(() => queue.stats.refused, { timeout: 60_000 }).toBe(11);
    expect(queue.stats.running).toBe(1);
    expect(queue.stats.queued).toBe(8);
    // Token verification does not wait behind password checks.
    const me = await fetch(`${host.running.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    return burst;
  });

  const answers = await Promise.all(burst.map(async (response) => ({ response: await response, body: await (await response).text() })));
  const statuses = answers.map(({ response }) => response.status);
  expect(statuses.filter((status) => status === 401)).toHaveLength(9);
  const refused = answers.filter(({ response }) => response.status === 503);
  expect(refused).toHaveLength(11);
  for (const { response, body } of refused) {
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(body)).toEqual({ code: 503, message: 'Too many logins are being checked at the moment; retry later.' });
  }
  // A flood of logins writes a few warnings that count the refusals, never a CRITICAL line.
  await expect.poll(() => refusalsLogged(host).refusals, { timeout: 60_000 }).toBe(11);
  expect(refusalsLogged(host).lines).toBeLessThan(11);
  expect(host.logger.records.filter((record) => record.level === 'CRITICAL')).toEqual([]);
});

it('a login whose client closed its connection while waiting is not hashed', async () => {
  const queue = host.app.passwordHashing;
  const before = queue.stats;
  const body = JSON.stringify({ username: 'demo', password: 'wrong-password' });
  const { first } = await withCheckerStopped(async () => {
    // Occupies the running slot while the checker is stopped, so the logins below wait for their turn.
    const first = login('demo', 'wrong-password');
    await expect.poll(() => queue.stats.running, { timeout: 60_000 }).toBe(1);
    // The host's ends of the five connections below: a waiting login counts as gone once the host
    // has seen its connection close, which takes a moment after the client closes it.
    const hostEnds: Socket[] = [];
    const onConnection = (socket: Socket): void => void hostEnds.push(socket);
    host.running.server.on('connection', onConnection);
    const sockets = Array.from({ length: 5 }, () => {
      const socket = connect(Number(new URL(host.running.url).port), '127.0.0.1');
      socket.write(
        `POST /api/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      return socket;
    });
    await expect.poll(() => queue.stats.queued, { timeout: 60_000 }).toBe(5);
    host.running.server.off('connection', onConnection);
    for (const socket of sockets) socket.destroy();
    await expect.poll(() => hostEnds.length === 5 && hostEnds.every((socket) => socket.destroyed), { timeout: 60_000 }).toBe(true);
    // In an object: a promise returned as is would be awaited while the checker is stopped.
    return { first };
  });

  expect((await first).status).toBe(401);
  await expect.poll(() => queue.stats.skipped - before.skipped, { timeout: 60_000 }).toBe(5);
  expect(queue.stats.completed - before.completed).toBe(1);
  expect(logLines('Password check skipped')).toBe(5);
});

describe('with login throttling on (the default), behind a trusted proxy', () => {
  let throttled: StartedHost;
  beforeAll(async () => {
    throttled = await startHostInProcess({
      APP_DEBUG: '0',
      JWT_SECRET_KEY: keys.privateKeyPath,
      JWT_PUBLIC_KEY: keys.publicKeyPath,
      JWT_PASSPHRASE: keys.passphrase!,
      SECURITY_USERS_FILE: usersFile,
      TRUSTED_PROXIES: 'loopback',
    });
  });
  afterAll(async () => {
    await throttled?.stop();
  });

  it('a login refused 503 by the full queue spends no throttle attempt: its five guesses remain', async () => {
    const queue = throttled.app.passwordHashing;
    const victim = '192.0.2.77';
    const { attackers, refused } = await withCheckerStopped(async () => {
      // Nine addresses fill the queue: one check running (held by the stopped checker), eight waiting.
      const attackers = Array.from({ length: 9 }, (_, index) => login(`attacker-${index}`, 'guess', throttled, `198.51.100.${index + 1}`));
      await expect.poll(() => queue.stats.running + queue.stats.queued, { timeout: 60_000 }).toBe(9);
      const refused = await Promise.all(Array.from({ length: 6 }, () => login('demo', 'demo-password', throttled, victim)));
      return { attackers, refused };
    }, throttled);
    expect(refused.map((response) => response.status)).toEqual([503, 503, 503, 503, 503, 503]);
    expect((await Promise.all(attackers)).map((response) => response.status)).toEqual(Array.from({ length: 9 }, () => 401));

    // The six refusals took no token: the victim still has all five attempts of the minute.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) statuses.push((await login('demo', `guess-${attempt}`, throttled, victim)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    // The six refusals are logged as warnings that count them, fewer lines than refusals.
    await expect.poll(() => refusalsLogged(throttled).refusals, { timeout: 60_000 }).toBe(6);
    expect(refusalsLogged(throttled).lines).toBeLessThan(6);
  });
});

let hostProcess: HostProcess | undefined;
afterAll(async () => {
  if (hostProcess === undefined || hostProcess.child.exitCode !== null) return;
  hostProcess.child.kill('SIGTERM');
  await hostProcess.exited;
});

it('the host process checks passwords in a child at nice 19; if that child dies, its check answers 503 and the next login works', async () => {
  // Cheap hashes: this is about the checker's crash, and a check at nice 19 on a busy machine gets little CPU.
  const usersFile = join(scratch, 'cheap-users.json');
  const cheap = { N: 2 ** 10, r: 8, p: 1 };
  writeFileSync(
    usersFile,
    JSON.stringify({
      users: [{ username: 'demo', roles: ['ROLE_USER'], password: await scryptPasswordHasher.hash('demo-password', cheap) }],
    }),
  );
  const host = await startHostProcess({
    APP_DEBUG: '0',
    JWT_SECRET_KEY: keys.privateKeyPath,
    JWT_PUBLIC_KEY: keys.publicKeyPath,
    JWT_PASSPHRASE: keys.passphrase!,
    SECURITY_USERS_FILE: usersFile,
    // What is tested is the hashing queue: bursts of logins from one address, which throttling would refuse first.
    LOGIN_THROTTLING: 'off',
  });
  hostProcess = host;
  const url = await host.url;
  const checkerPid = async (): Promise<number> => {
    await expect.poll(() => /Password checker process (\d+) started/.test(host.log()), { timeout: 60_000 }).toBe(true);
    return Number(/Password checker process (\d+) started/.exec(host.log())![1]);
  };
  const pid = await checkerPid();
  expect(pid).not.toBe(host.child.pid);
  if (process.platform === 'linux') {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])).toBe(19);
  }
  const loginAt = (password: string) =>
    fetch(`${url}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password }),
    }).then(async (response) => ({
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.text(),
    }));

  // Stopped, the checker answers nothing: one login runs, eight wait, the tenth is refused at once.
  process.kill(pid, 'SIGSTOP');
  const answers: Array<{ status: number; body: string }> = [];
  const burst = Array.from({ length: 10 }, () => loginAt('wrong-password').then((answer) => answers.push(answer)));
  await expect.poll(() => answers.length, { timeout: 60_000 }).toBe(1);
  expect(answers[0]!.status).toBe(503);
  process.kill(pid, 'SIGKILL');
  await Promise.all(burst);

  const crashed = answers.filter(({ body }) => body.includes('restarted'));
  expect(crashed).toEqual([
    { status: 503, retryAfter: '1', body: JSON.stringify({ code: 503, message: 'The password checker restarted; retry the login.' }) },
  ]);
  // The eight that waited were checked by the new child.
  expect(answers.filter(({ status }) => status === 401)).toHaveLength(8);
  expect((await loginAt('demo-password')).status).toBe(200);
  expect(host.log()).toContain(`Password checker process ${pid} exited (code null, signal SIGKILL)`);
  expect(/Password checker process (\d+) started/g.exec(host.log().split(`${pid} exited`)[1]!)).not.toBeNull();
  expect(host.log()).not.toContain('CRITICAL');
  expect(host.log() + host.output()).not.toMatch(/wrong-password|demo-password|scrypt\$/);
  host.child.kill('SIGTERM');
  expect(await host.exited).toBe(0);
});
