/**
 * Credentials sent outside `Authorization` (a JWT in the path, the query string, a Referer, a
 * cookie; a `Bearer …` value in a query parameter) never appear in clear in a profile, a profiler
 * page or a log line; and a response shared caches may store never carries a URL built from the
 * client's Host header.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '@switchboard/node-adapter';
import { createTestDatabase } from '../../../test/kit/services/database-servers.js';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createConsoleLogger } from '../src/console-logger.js';

const JWT =
  'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VybmFtZSI6ImRlbW8iLCJyb2xlcyI6WyJST0xFX1VTRVIiXX0.MEUCIQDtBV3cHsSlQeAKPGbBHG8hlZrXXJ3FhVE2RdSXbXq6RQ';
const OPAQUE = 'opaque-access-token-7f3a9c';

interface LoggedHost {
  url: string;
  lines: string[];
  stop(): Promise<void>;
}

/** The host as main.ts builds it, with its console logger writing into `lines`, on a database of its own. */
async function startLoggedHost(env: Record<string, string>): Promise<LoggedHost> {
  const lines: string[] = [];
  const database = await createTestDatabase();
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    APP_HOST: '127.0.0.1',
    API_HOST_CONFIG: '',
    APP_DEBUG: '1',
    DATABASE_URL: database.connectionString,
    ...env,
  });
  const logger = createConsoleLogger('DEBUG', (line) => lines.push(line));
  const app = await createApp(config, { logger });
  const running: RunningServer = await serve(app.kernel, {
    port: 0,
    handleSignals: false,
    ...(config.baseUrl === null ? {} : { baseUrl: config.baseUrl }),
    logger: app.logger,
    onShutdown: () => app.shutdown(),
  });
  return {
    url: running.url,
    lines,
    async stop() {
      await running.close();
      await database.stop();
    },
  };
}

async function saved(base: string, token: string): Promise<string> {
  let page = await fetch(`${base}/_profiler/${token}?format=json`);
  for (let i = 0; i < 100 && page.status === 404; i++) {
    await page.text();
    await new Promise((resolve) => setTimeout(resolve, 10));
    page = await fetch(`${base}/_profiler/${token}?format=json`);
  }
  expect(page.status).toBe(200);
  return page.text();
}

describe('bearer-shaped credentials outside Authorization', () => {
  let host: LoggedHost;

  beforeAll(async () => {
    host = await startLoggedHost({});
  });
  afterAll(() => host.stop());

  it('are redacted in profiles, profiler pages and log lines', async () => {
    const response = await fetch(`${host.url}/session/${JWT}?access_token=${JWT}&auth=Bearer%20${OPAQUE}`, {
      headers: { referer: `http://127.0.0.1/start?t=${JWT}`, cookie: `sid=${JWT}`, 'x-api-token': `Bearer ${OPAQUE}` },
    });
    await response.text();
    expect(response.status).toBe(404);
    const token = response.headers.get('x-debug-token')!;
    const previous = response.headers.get('x-previous-debug-token')!;

    const shown = [await saved(host.url, token), await saved(host.url, previous)];
    for (const panel of ['request', 'exception', 'logger', 'router']) {
      shown.push(await (await fetch(`${host.url}/_profiler/${previous}?panel=${panel}`)).text());
    }
    shown.push(await (await fetch(`${host.url}/_profiler/?format=json`)).text());
    shown.push(await (await fetch(`${host.url}/_profiler/`)).text());
    const logged = host.lines.join('');
    expect(logged).toContain('No route found for');
    for (const text of [...shown, logged]) {
      expect(text).not.toContain(JWT.split('.')[1]);
      expect(text).not.toContain(OPAQUE);
    }
    expect(shown[1]).toContain('[redacted]');
    const notFoundLine = host.lines.find((line) => line.includes('request.ERROR') && line.includes('No route found'));
    expect(notFoundLine).toContain(`${host.url}/session/[redacted]`);
    expect(notFoundLine).toContain('http://127.0.0.1/start?t=[redacted]');
  });
});

describe('secrets sent in headers named like secrets, query parameters named like secrets and Referer userinfo', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'profiler-redaction-'));
  const directory = join(scratch, 'profiles');
  let host: LoggedHost;

  beforeAll(async () => {
    host = await startLoggedHost({ PROFILER_DIR: directory });
  });
  afterAll(async () => {
    await host.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Every value below is a secret; none may appear in a stored profile, a page, or a profile file. */
  const SECRETS = {
    password: 'pw-query-7d1e2a',
    passwd: 'pw-passwd-93c1b0',
    secret: 'query-secret-4f0aa1',
    token: 'query-token-55e9c3',
    api_key: 'query-api-key-a61f08',
    apikey: 'query-apikey-0b7d2e',
    access_token: 'query-access-token-c3a9f1',
    client_secret: 'query-client-secret-71bd0e',
  };
  const HEADER_SECRETS = {
    'x-api-key': 'header-api-key-2c8e4d',
    'x-auth-token': 'header-auth-token-9a0f13',
    'x-amz-security-token': 'header-amz-token-6b3c7e',
    'x-upload-session-token': 'header-session-token-e40d95',
  };
  const REFERER_USER = 'referer-user-18f2ac';
  const REFERER_PASSWORD = 'referer-password-d09b37';

  it('are redacted in the stored profile (on disk and in every page) and in log lines, and profile files are 0600 in a 0700 folder', async () => {
    const query = new URLSearchParams({ ...SECRETS, visible: 'keep-this-value' }).toString();
    const response = await fetch(`${host.url}/api/nowhere?${query}`, {
      headers: {
        ...HEADER_SECRETS,
        referer: `https://${REFERER_USER}:${REFERER_PASSWORD}@app.example/start?password=${SECRETS.password}`,
      },
    });
    await response.text();
    expect(response.status).toBe(404);
    const token = response.headers.get('x-debug-token')!;
    const previous = response.headers.get('x-previous-debug-token')!;

    const shown = [await saved(host.url, token), await saved(host.url, previous)];
    for (const panel of ['request', 'exception', 'logger', 'router', 'events']) {
      shown.push(await (await fetch(`${host.url}/_profiler/${previous}?panel=${panel}`)).text());
    }
    shown.push(await (await fetch(`${host.url}/_profiler/?format=json`)).text());
    shown.push(await (await fetch(`${host.url}/_profiler/`)).text());
    // The files are written behind the response: wait for both, within bounds.
    for (let i = 0; i < 200 && !(existsSync(join(directory, `${token}.json`)) && existsSync(join(directory, `${previous}.json`))); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const files = readdirSync(directory);
    expect(files).toEqual(expect.arrayContaining([`${token}.json`, `${previous}.json`, 'index.jsonl']));
    const onDisk = files.map((name) => readFileSync(join(directory, name), 'latin1'));

    const secrets = [...Object.values(SECRETS), ...Object.values(HEADER_SECRETS), REFERER_USER, REFERER_PASSWORD];
    const logged = host.lines.join('');
    for (const text of [...shown, ...onDisk, logged]) {
      for (const secret of secrets) expect(text.includes(secret), secret).toBe(false);
    }
    // The 404's log line quotes the Referer, with its secrets hidden.
    expect(logged).toContain('(from "https://[redacted]@app.example/start?password=[redacted]")');
    // What is not a secret is still there: the test would see a leak.
    expect(shown[1]).toContain('keep-this-value');
    expect(onDisk.join('')).toContain('keep-this-value');
    expect(shown[1]).toContain('https://[redacted]@app.example/start?password=[redacted]');

    expect(statSync(directory).mode & 0o777).toBe(0o700);
    for (const name of files) expect(statSync(join(directory, name)).mode & 0o777, name).toBe(0o600);
  });
});

describe('x-debug-token-link on responses shared caches may store', () => {
  const login = async (base: string): Promise<string> => {
    const issued = await fetch(`${base}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
    });
    return ((await issued.json()) as { token: string }).token;
  };
  const itemPage = async (base: string, headers: Record<string, string> = {}): Promise<Response> => {
    const created = await fetch(`${base}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${await login(base)}` },
      body: JSON.stringify({ name: 'lamp', quantity: 2 }),
    });
    const { id } = (await created.json()) as { id: number };
    const page = await fetch(`${base}/api/items/${id}`, { headers });
    await page.text();
    return page;
  };

  it('is a path only when the origin comes from the Host header; private responses keep the absolute link', {
    timeout: 60_000,
  }, async () => {
    const host = await startLoggedHost({});
    try {
      const page = await itemPage(host.url, { host: 'attacker.example' });
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toContain('public');
      expect(page.headers.get('x-debug-token-link')).toBe(`/_profiler/${page.headers.get('x-debug-token')}`);

      const notFound = await fetch(`${host.url}/robots.txt`);
      await notFound.text();
      expect(notFound.headers.get('cache-control')).toBe('no-cache, private');
      expect(notFound.headers.get('x-debug-token-link')).toBe(`${host.url}/_profiler/${notFound.headers.get('x-debug-token')}`);
    } finally {
      await host.stop();
    }
  });

  it('is absolute, from the configured base URL, when one is configured', { timeout: 60_000 }, async () => {
    const host = await startLoggedHost({ APP_BASE_URL: 'https://v2.api.example.com' });
    try {
      const page = await itemPage(host.url, { host: 'attacker.example' });
      expect(page.headers.get('cache-control')).toContain('public');
      expect(page.headers.get('x-debug-token-link')).toBe(`https://v2.api.example.com/_profiler/${page.headers.get('x-debug-token')}`);
    } finally {
      await host.stop();
    }
  });
});
