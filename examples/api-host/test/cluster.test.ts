/**
 * `WORKERS=N`: the example host as a `node:cluster` primary with N workers on one port, against a
 * real PostgreSQL server (`DATABASE_URL`) and a real redis-server (`PROFILER_REDIS_URL`). Nothing a
 * client relies on is per-process: a token issued by one worker is accepted by the others, items
 * written through one are read through another, and every profiler link resolves through any
 * worker. Also: Redis stopped and started mid-run, a killed worker replaced, SIGTERM draining every
 * worker, and the configurations the cluster refuses.
 */
import http from 'node:http';
import { DEFAULT_KEY_PREFIX } from '@switchboard/profiler-redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamReader } from '../../../test/kit/services/event-feed.js';
import { RedisServer } from '../../../test/kit/services/redis-server.js';
import { SERVER_IDLE_TIMEOUT_MS, idleDroppingDatabase, type TestDatabase } from '../../../test/kit/services/database-servers.js';
import { startHostProcess, type HostProcess } from './support/start-host.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** `x-served-by` (debug mode only): `worker 3 (pid 12345)`. */
  worker: string;
}

/** One request on a connection of its own: the primary hands each new connection to the next worker. */
function send(
  url: string,
  path: string,
  options: { method?: string; token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const outgoing = http.request(new URL(path, url), { method: options.method ?? 'GET', agent: false, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body, worker: String(response.headers['x-served-by'] ?? '') }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** The test server drops sessions idle for a second: connections are renewed before that, as docs/database.md says. */
const DATABASE_IDLE_TTL = String(SERVER_IDLE_TIMEOUT_MS / 2000);
const PUBLIC_ORIGIN = 'https://api.example.test';
const LOGIN = JSON.stringify({ username: 'demo', password: 'demo-password' });
const header = (answer: Answer, name: string): string => String(answer.headers[name] ?? '');
const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** The pids the primary logged as listening, in order. */
const listeningPids = (host: HostProcess): number[] =>
  [...host.log().matchAll(/Cluster: worker \d+ \(pid (\d+)\) listening\./g)].map((match) => Number(match[1]));

/** Sends `request` on new connections until `done` holds for the answers so far; at most `limit` requests. */
async function sendUntil(request: () => Promise<Answer>, done: (answers: Answer[]) => boolean, limit = 60): Promise<Answer[]> {
  const answers: Answer[] = [];
  while (answers.length < limit && !done(answers)) answers.push(await request());
  return answers;
}

const distinctWorkers = (answers: Answer[]): Set<string> => new Set(answers.map((answer) => answer.worker));

/** Stops a host still running at the end of a test (the tests stop theirs; this is for failures). */
async function stopHost(host: HostProcess | undefined): Promise<void> {
  if (host === undefined || host.child.exitCode !== null || host.child.signalCode !== null) return;
  host.child.kill('SIGTERM');
  await host.exited;
}

let postgres: TestDatabase;
/** Where the clusters without a Redis of their own count logins (a cluster refuses to start without one). */
let limitsRedis: RedisServer;
beforeAll(async () => {
  [postgres, limitsRedis] = await Promise.all([idleDroppingDatabase(), RedisServer.start()]);
});
afterAll(async () => {
  await Promise.all([postgres?.stop(), limitsRedis?.close()]);
});

/**
 * Two workers are enough to show that nothing a client relies on stays in one process: every check
 * below asks for a worker other than the one that answered. Each further worker would only cost
 * another host start.
 */
const WORKERS = 2;

describe(`WORKERS=${WORKERS} with PostgreSQL and Redis, debug mode`, () => {
  let redis: RedisServer;
  let host: HostProcess;
  let url: string;
  /** 404s of the first test: one per request, with the worker that answered. */
  let notFound: Answer[] = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
    host = await startHostProcess({
      WORKERS: String(WORKERS),
      DATABASE_URL: postgres.connectionString,
      DATABASE_IDLE_TTL,
      PROFILER_REDIS_URL: redis.url,
      APP_DEBUG: '1',
      API_HOST_CONFIG: '',
      // As behind a reverse proxy on this machine: its X-Forwarded-For is believed, links name the public origin.
      TRUSTED_PROXIES: 'loopback',
      APP_BASE_URL: PUBLIC_ORIGIN,
      // The test reaches the workers at 127.0.0.1, not through the public name.
      TRUSTED_HOSTS: `${new URL(PUBLIC_ORIGIN).hostname},127.0.0.1`,
    });
    url = await host.url;
  });
  afterAll(async () => {
    await stopHost(host);
    await redis?.close();
  });

  /** A profile through a worker other than `notThis`: polled while the origin's write is on its way to Redis. */
  async function profileElsewhere(token: string, notThis: string): Promise<Answer> {
    const answers = await sendUntil(
      () => send(url, `/_profiler/${token}?format=json`),
      (sofar) => sofar.some((answer) => answer.status === 200 && answer.worker !== notThis),
      200,
    );
    for (const answer of answers) expect([200, 404]).toContain(answer.status);
    const found = answers.find((answer) => answer.status === 200 && answer.worker !== notThis);
    expect(found, `profile ${token} never answered by a worker other than ${notThis}`).toBeDefined();
    return found!;
  }

  it('prints one startup line for the cluster, and the requests reach every worker', async () => {
    expect(host.output()).toMatch(
      new RegExp(
        `listening on http://127\\.0\\.0\\.1:\\d+ \\(public URL https://api\\.example\\.test\\) — debug mode ON .* \\(${WORKERS} workers\\)\n$`,
      ),
    );
    expect(host.output().match(/listening on/g)).toHaveLength(1);
    notFound = await sendUntil(
      () => send(url, '/robots.txt'),
      (sofar) => distinctWorkers(sofar).size === WORKERS,
    );
    expect(distinctWorkers(notFound).size).toBe(WORKERS);
    for (const answer of notFound) {
      expect(answer.status).toBe(404);
      expect(answer.worker).toMatch(/^worker \d+ \(pid \d+\)$/);
    }
  });

  it('every x-debug-token-link and x-previous-debug-token resolves through a worker other than the one that answered', async () => {
    for (const answer of notFound) {
      const token = header(answer, 'x-debug-token');
      const previous = header(answer, 'x-previous-debug-token');
      const link = header(answer, 'x-debug-token-link');
      expect(link).toBe(`${PUBLIC_ORIGIN}/_profiler/${token}`);

      // The error page's profile (x-debug-token) is a sub-request of the main request (x-previous-debug-token).
      const sub = JSON.parse((await profileElsewhere(token, answer.worker)).body) as { token: string; parent: { token: string } };
      expect(sub.token).toBe(token);
      expect(sub.parent.token).toBe(previous);
      const main = JSON.parse((await profileElsewhere(previous, answer.worker)).body) as {
        url: string;
        collectors: { request: { responseHeaders: Array<[string, string[]]> } };
      };
      expect(main.url).toBe(`${PUBLIC_ORIGIN}/robots.txt`);
      // The profile keeps the worker that answered.
      expect(main.collectors.request.responseHeaders).toContainEqual(['x-served-by', [answer.worker]]);

      const page = await sendUntil(
        () => send(url, new URL(link).pathname),
        (sofar) => sofar.some((other) => other.worker !== answer.worker),
        20,
      );
      for (const other of page) {
        expect(other.status).toBe(200);
        expect(other.body).toContain(token);
      }
    }
  });

  it('the search and latest?ip= list the profiles of every worker, through any worker', async () => {
    const search = await sendUntil(
      () => send(url, '/_profiler/?ip=127.0.0.1&limit=100&format=json'),
      (sofar) => distinctWorkers(sofar).size >= 2,
      20,
    );
    const mains = notFound.map((answer) => header(answer, 'x-previous-debug-token'));
    for (const answer of search) {
      expect(answer.status).toBe(200);
      const listed = (JSON.parse(answer.body) as { profiles: Array<{ token: string }> }).profiles.map((profile) => profile.token);
      expect(listed).toEqual(expect.arrayContaining(mains));
    }

    // The newest profile from 127.0.0.1, written by one worker, is `latest` through the others.
    const fresh = await send(url, '/favicon.ico');
    expect(fresh.status).toBe(404);
    const tokens = [header(fresh, 'x-debug-token'), header(fresh, 'x-previous-debug-token')];
    const latest = await sendUntil(
      () => send(url, '/_profiler/latest?ip=127.0.0.1&format=json'),
      (sofar) => sofar.some((answer) => answer.worker !== fresh.worker && tokens.includes(JSON.parse(answer.body).token)),
      200,
    );
    for (const answer of latest) expect(answer.status).toBe(200);
    expect(latest.some((answer) => answer.worker !== fresh.worker && tokens.includes(JSON.parse(answer.body).token))).toBe(true);
  });

  it('behind the trusted proxy, profiles record the forwarded client address, which any worker searches by', async () => {
    const proxied = await send(url, '/robots.txt', { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(proxied.status).toBe(404);
    const main = header(proxied, 'x-previous-debug-token');
    const listedBy = (answer: Answer): Array<{ token: string; ip: string }> =>
      answer.status === 200 ? (JSON.parse(answer.body) as { profiles: Array<{ token: string; ip: string }> }).profiles : [];
    const listsMain = (answer: Answer): boolean =>
      answer.worker !== proxied.worker && listedBy(answer).some((profile) => profile.token === main);
    // Polled: the worker that answered may still be writing the profile to Redis.
    const found = await sendUntil(
      () => send(url, '/_profiler/?ip=203.0.113.7&format=json'),
      (sofar) => sofar.some(listsMain),
      200,
    );
    for (const answer of found) expect(answer.status).toBe(200);
    const elsewhere = found.find(listsMain);
    expect(elsewhere).toBeDefined();
    const listed = listedBy(elsewhere!);
    expect(new Set(listed.map((profile) => profile.ip))).toEqual(new Set(['203.0.113.7']));
  });

  it('a token from one worker is accepted by the others; an item created through one is read through another', async () => {
    const login = await send(url, '/api/token', { method: 'POST', body: LOGIN });
    expect(login.status).toBe(200);
    const { token } = JSON.parse(login.body) as { token: string };

    const me = await sendUntil(
      () => send(url, '/api/me', { token }),
      (sofar) => distinctWorkers(sofar).size === WORKERS,
      30,
    );
    expect(distinctWorkers(me).size).toBe(WORKERS);
    for (const answer of me) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ username: 'demo', roles: ['ROLE_USER'] });
    }

    const created = await send(url, '/api/items', { method: 'POST', token, body: JSON.stringify({ name: 'shared widget', quantity: 7 }) });
    expect(created.status).toBe(201);
    const item = JSON.parse(created.body) as { id: number; name: string; quantity: number };
    const reads = await sendUntil(
      () => send(url, `/api/items/${item.id}`),
      (sofar) => sofar.some((answer) => answer.worker !== created.worker),
      20,
    );
    expect(reads.some((answer) => answer.worker !== created.worker)).toBe(true);
    for (const answer of reads) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ id: item.id, name: 'shared widget', quantity: 7 });
    }

    // The validator comes from the database, so any worker confirms another worker's copy.
    const etag = header(reads[0]!, 'etag');
    expect(etag).not.toBe('');
    const revalidated = await sendUntil(
      () => send(url, `/api/items/${item.id}`, { headers: { 'if-none-match': etag } }),
      (sofar) => sofar.some((answer) => answer.worker !== reads[0]!.worker),
      20,
    );
    for (const answer of revalidated) expect(answer.status).toBe(304);
    expect(revalidated.some((answer) => answer.worker !== reads[0]!.worker)).toBe(true);
  });

  it('an item created through one worker reaches an event stream held open by another (PostgreSQL NOTIFY)', async () => {
    const login = await send(url, '/api/token', { method: 'POST', body: LOGIN });
    const { token } = JSON.parse(login.body) as { token: string };
    const stream = await fetch(new URL('/api/items/events', url), { headers: { authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(200);
    const streamWorker = stream.headers.get('x-served-by');
    const reader = new StreamReader(stream.body!);
    try {
      await reader.until((text) => text.startsWith(':\n\n'));
      // Each connection goes to the next worker: a few creations are enough to have one elsewhere.
      const created = await sendUntil(
        () => send(url, '/api/items', { method: 'POST', token, body: JSON.stringify({ name: 'broadcast', quantity: 1 }) }),
        (sofar) => sofar.some((answer) => answer.worker !== streamWorker),
        10,
      );
      const elsewhere = created.find((answer) => answer.worker !== streamWorker);
      expect(elsewhere?.status).toBe(201);
      const { id } = JSON.parse(elsewhere!.body) as { id: number };
      const text = await reader.until((seen) => seen.includes(`"id":${id},`));
      expect(text).toMatch(new RegExp(`event: created\\ndata: \\{"id":${id},"name":"broadcast"`));
    } finally {
      await reader.cancel();
    }
  });

  it('with Redis stopped every worker keeps answering and its profiler says storage is unavailable; all recover when Redis is back', async () => {
    // Only this outage's lines count: a worker that timed out connecting at startup on a busy machine logged one then.
    const logBefore = host.log().length;
    await redis.stop();
    const reportsDown = (answer: Answer): boolean =>
      answer.status === 200 && (JSON.parse(answer.body) as { storage?: { available: boolean } }).storage?.available === false;
    const down = await sendUntil(
      async () => {
        // The API answers as usual meanwhile, and a 404 still gets its profile tokens.
        expect((await send(url, '/health')).status).toBe(200);
        const missing = await send(url, '/robots.txt');
        expect(missing.status).toBe(404);
        expect(header(missing, 'x-debug-token')).toMatch(/^[0-9a-f]+$/);
        return send(url, '/_profiler/?format=json');
      },
      (sofar) => distinctWorkers(sofar.filter(reportsDown)).size === WORKERS,
      200,
    );
    for (const answer of down) expect(answer.status).toBe(200);
    expect(distinctWorkers(down.filter(reportsDown)).size).toBe(WORKERS);
    const unavailable = await send(url, `/_profiler/${'0'.repeat(32)}`);
    expect([404, 503]).toContain(unavailable.status);
    const items = await send(url, '/api/items');
    expect(items.status).toBe(200);

    // One line per worker and outage (a worker that could not connect at startup logged its line then), no worker lost, no error page.
    const outageLines =
      host
        .log()
        .slice(logBefore)
        .match(/Profiler storage: Redis at 127\.0\.0\.1:\d+ is unavailable/g) ?? [];
    expect(outageLines.length).toBeGreaterThanOrEqual(WORKERS - 1);
    expect(outageLines.length).toBeLessThanOrEqual(WORKERS);
    expect(host.log()).not.toContain('replaced by');
    expect(host.log()).not.toContain('CRITICAL');
    expect(host.child.exitCode).toBeNull();

    await redis.start();
    // Recovered: a new 404's profile, written to Redis by one worker, is read through another.
    const recovered = await sendUntil(
      async () => {
        const missing = await send(url, '/robots.txt');
        const lookup = await send(url, `/_profiler/${header(missing, 'x-previous-debug-token')}?format=json`);
        return { ...lookup, worker: lookup.worker === missing.worker ? '' : lookup.worker };
      },
      (sofar) => sofar.some((answer) => answer.status === 200 && answer.worker !== ''),
      200,
    );
    expect(recovered.some((answer) => answer.status === 200 && answer.worker !== '')).toBe(true);
    expect(host.log()).toMatch(/Profiler storage: Redis at 127\.0\.0\.1:\d+ is available again/);
  });

  it('login throttling is shared through Redis: 24 wrong passwords at once, spread over the workers, admit exactly 5 password checks', async () => {
    // One client address (the host trusts loopback as its proxy), one username, all at once on new connections.
    const body = JSON.stringify({ username: 'demo', password: 'not-the-password' });
    const attempts = await Promise.all(
      Array.from({ length: 24 }, () => send(url, '/api/token', { method: 'POST', body, headers: { 'x-forwarded-for': '203.0.113.77' } })),
    );
    const statuses = attempts.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    // The rest are throttled (429), or — arriving while their worker's hashing queue was full of this
    // very burst — refused 503 before the throttle counted them; both say when to retry.
    expect(statuses.filter((status) => status === 429 || status === 503)).toHaveLength(19);
    for (const refused of attempts.filter((answer) => answer.status !== 401))
      expect(Number(header(refused, 'retry-after'))).toBeGreaterThan(0);
    expect(distinctWorkers(attempts).size).toBeGreaterThanOrEqual(2);
  });

  it('on SIGTERM to the primary: in-flight logins answered, the last profiles in Redis, every worker gone, exit 0', async () => {
    const pids = listeningPids(host);
    expect(pids).toHaveLength(WORKERS);
    const matched = (): number => host.log().split('Matched route "api_token"').length - 1;
    const before = matched();
    // Answered by every worker right before the signal: their profiles must be in Redis once the cluster is gone.
    const lastNotFound = await Promise.all(Array.from({ length: 8 }, () => send(url, '/robots.txt')));
    expect(distinctWorkers(lastNotFound).size).toBeGreaterThanOrEqual(2);
    const logins = Array.from({ length: 4 }, () => send(url, '/api/token', { method: 'POST', body: LOGIN }));
    await expect.poll(matched, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(before + 4);

    host.child.kill('SIGTERM');
    for (const login of await Promise.all(logins)) {
      expect([200, 503]).toContain(login.status);
      if (login.status === 200) expect(JSON.parse(login.body)).toMatchObject({ token_type: 'Bearer' });
    }
    expect(await host.exited).toBe(0);
    expect(pids.filter(isRunning)).toEqual([]);
    expect(host.log()).toContain(`Cluster: SIGTERM received: stopping ${WORKERS} workers`);
    const inspector = await redis.inspector();
    try {
      for (const answer of lastNotFound) {
        for (const token of [header(answer, 'x-debug-token'), header(answer, 'x-previous-debug-token')]) {
          expect(await inspector.exists(`${DEFAULT_KEY_PREFIX}profile:${token}`), token).toBe(1);
        }
      }
    } finally {
      await inspector.close();
    }
    // Each worker drained, and its lines say which worker it is.
    const drained = [...host.log().matchAll(/\[(worker \d+)\] http\.INFO: SIGTERM received: finishing in-flight requests/g)];
    expect(new Set(drained.map((match) => match[1])).size).toBe(WORKERS);
  });
});

describe('WORKERS=2 in production mode', () => {
  let host: HostProcess | undefined;
  afterAll(() => stopHost(host));

  it('replaces a killed worker and keeps answering; SIGINT then stops both workers with exit 0', async () => {
    host = await startHostProcess({
      WORKERS: '2',
      DATABASE_URL: postgres.connectionString,
      DATABASE_IDLE_TTL,
      APP_DEBUG: '0',
      API_HOST_CONFIG: '',
      REDIS_URL: limitsRedis.url,
    });
    const url = await host.url;
    expect(host.output()).toMatch(/debug mode OFF \(2 workers\)\n$/);
    const [victim, survivor] = listeningPids(host);
    expect(isRunning(victim!)).toBe(true);

    process.kill(victim!, 'SIGKILL');
    const replaced = new RegExp(`worker \\d+ \\(pid ${victim}\\) exited with signal SIGKILL; replaced by worker \\d+ \\(pid (\\d+)\\)`);
    await expect.poll(() => replaced.exec(host!.log()), { timeout: 20_000, interval: 20 }).not.toBeNull();
    const replacement = Number(replaced.exec(host.log())![1]);
    await expect.poll(() => listeningPids(host!), { timeout: 100_000, interval: 50 }).toContain(replacement);

    // Both connections in turn reach a worker; production responses do not say which.
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(url, '/health')));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers['x-served-by']).toBeUndefined();
    }
    expect(host.child.exitCode).toBeNull();

    // SIGINT (Ctrl-C) takes the same path as SIGTERM.
    host.child.kill('SIGINT');
    expect(await host.exited).toBe(0);
    expect([survivor!, replacement].filter(isRunning)).toEqual([]);
    expect(host.log()).toContain('Cluster: SIGINT received: stopping 2 workers');
  });
});

describe('WORKERS=2 in debug mode without Redis', () => {
  let host: HostProcess | undefined;
  afterAll(() => stopHost(host));

  it('warns that profiles stay with their worker: a token resolves on the worker that issued it and on no other', async () => {
    host = await startHostProcess({
      WORKERS: '2',
      DATABASE_URL: postgres.connectionString,
      DATABASE_IDLE_TTL,
      APP_DEBUG: '1',
      API_HOST_CONFIG: '',
      REDIS_URL: limitsRedis.url,
    });
    const url = await host.url;
    expect(host.log()).toContain('Cluster: debug mode with profiles in memory: each of the 2 workers keeps its own');
    const missing = await send(url, '/robots.txt');
    expect(missing.status).toBe(404);
    const token = header(missing, 'x-previous-debug-token');
    const lookups = await sendUntil(
      () => send(url, `/_profiler/${token}?format=json`),
      (sofar) => distinctWorkers(sofar).size >= 2,
      20,
    );
    for (const lookup of lookups) expect(lookup.status).toBe(lookup.worker === missing.worker ? 200 : 404);
    expect(distinctWorkers(lookups).size).toBe(2);
  });
});

describe('configurations the cluster refuses', () => {
  it('WORKERS>1 with the embedded database: exit 78 and a message naming DATABASE_URL', async () => {
    const host = await startHostProcess({ WORKERS: '2', DATABASE_URL: '', APP_DEBUG: '1', API_HOST_CONFIG: '' });
    expect(await host.exited).toBe(78);
    expect(host.log()).toContain(
      'Configuration error: WORKERS=2 needs DATABASE_URL: the embedded database (PGlite) runs inside one process, so several workers cannot share it.',
    );
    expect(host.output()).toBe('');
  });

  it('WORKERS that is not a number from 1 to 64: exit 78', async () => {
    const host = await startHostProcess({ WORKERS: 'four', DATABASE_URL: postgres.connectionString, API_HOST_CONFIG: '' });
    expect(await host.exited).toBe(78);
    expect(host.log()).toContain('Configuration error: WORKERS must be a whole number from 1 to 64, got "four".');
  });

  it('WORKERS>1 with profiles in files (PROFILER_DIR) in debug mode: exit 78, pointing to PROFILER_REDIS_URL', async () => {
    const host = await startHostProcess({
      WORKERS: '2',
      DATABASE_URL: postgres.connectionString,
      PROFILER_DIR: 'var/never-created',
      APP_DEBUG: '1',
      API_HOST_CONFIG: '',
    });
    expect(await host.exited).toBe(78);
    expect(host.log()).toContain(
      "Configuration error: WORKERS=2 cannot share PROFILER_DIR: each worker's file storage would evict and delete the others' profiles. Set PROFILER_REDIS_URL",
    );
  });

  it('WORKERS>1 with login throttling and no Redis: exit 78, pointing to REDIS_URL', async () => {
    const host = await startHostProcess({ WORKERS: '2', DATABASE_URL: postgres.connectionString, APP_DEBUG: '0', API_HOST_CONFIG: '' });
    expect(await host.exited).toBe(78);
    expect(host.log()).toContain(
      'Configuration error: WORKERS=2 needs REDIS_URL: login throttling and rate limits count in Redis, so that 2 workers do not each allow the limit.',
    );
    expect(host.output()).toBe('');
  });

  it('workers that fail at startup are not forked forever: three in a row stop the cluster with exit 1', async () => {
    // Nothing listens on port 1: every worker fails to open its database.
    const host = await startHostProcess({
      WORKERS: '2',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/postgres',
      APP_DEBUG: '0',
      API_HOST_CONFIG: '',
      REDIS_URL: limitsRedis.url,
    });
    expect(await host.exited).toBe(1);
    expect(host.log()).toContain('Cluster: 3 workers in a row exited before listening');
    expect(host.log().match(/replaced by worker/g)?.length ?? 0).toBeLessThanOrEqual(2);
    expect(host.output()).toBe('');
  });

  it('a worker refused its configuration: the cluster stops at once with exit 78', async () => {
    const host = await startHostProcess({
      WORKERS: '2',
      DATABASE_URL: postgres.connectionString,
      PROFILER_REDIS_URL: 'not a url',
      APP_DEBUG: '1',
      API_HOST_CONFIG: '',
    });
    expect(await host.exited).toBe(78);
    expect(host.log()).toContain('Configuration error: PROFILER_REDIS_URL must be a URL');
    expect(host.log()).toMatch(/Cluster: worker \d+ \(pid \d+\) refused its configuration \(exit 78\); stopping\./);
    expect(host.log()).not.toContain('replaced by');
  });
});
