import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { loadJwtKeys, scryptPasswordHasher } from '@switchboard/security';
import { createApp } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { securityConfigFromEnv } from '../src/security/security-config.js';
import { standInHashForUnknownUsers } from '../src/security/security-controllers.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

const run = promisify(execFile);
/** The built module (the run's global setup builds the host): the processes below load no TypeScript. */
const securityConfigModule = fileURLToPath(new URL('../dist/security/security-config.js', import.meta.url));

describe('the shipped demo users (config/security-users.json)', () => {
  // Test hosts use the same users hashed at a low cost (support/start-host.ts); this is what ships.
  it('are hashed at the default scrypt cost, each with the password <username>-password', async () => {
    const file = fileURLToPath(new URL('../config/security-users.json', import.meta.url));
    const { users } = JSON.parse(readFileSync(file, 'utf8')) as { users: Array<{ username: string; password: string }> };
    expect(users.map((user) => user.username)).toEqual(['demo', 'admin']);
    const defaultCost = (await scryptPasswordHasher.hash('x')).split('$').slice(0, 4).join('$');
    for (const { username, password } of users) {
      expect(password.startsWith(`${defaultCost}$`)).toBe(true);
      expect(await scryptPasswordHasher.verify(`${username}-password`, password)).toBe(true);
    }
  });
});

describe('the stand-in hash an unknown user is checked against', () => {
  // A stand-in cheaper or dearer than the users' hashes would let a client tell unknown names by the time a 401 takes.
  it("is made at the users' cost (the highest when they differ), at the default cost when no hash can be read", async () => {
    const costOfStandIn = async (passwords: string[]) =>
      scryptPasswordHasher.costOf(await standInHashForUnknownUsers(new Map(passwords.map((password, i) => [`user${i}`, { password }])))());
    const cheap = { N: 2 ** 10, r: 8, p: 1 };
    const dearer = { N: 2 ** 11, r: 8, p: 1 };
    expect(await costOfStandIn([await scryptPasswordHasher.hash('a', cheap)])).toEqual(cheap);
    expect(await costOfStandIn([await scryptPasswordHasher.hash('a', cheap), await scryptPasswordHasher.hash('b', dearer)])).toEqual(
      dearer,
    );
    expect(await costOfStandIn(['not-a-hash'])).toEqual({ N: 2 ** 17, r: 8, p: 1 });
  });
});

describe('first start: key files in var/jwt', () => {
  it('creates the key pair and the passphrase (0600, in a 0700 folder) and warns without showing the passphrase', () => {
    const varDir = mkdtempSync(join(tmpdir(), 'api-host-var-'));
    const logger = new MemoryLogger();
    const config = securityConfigFromEnv({}, logger, varDir);
    const jwtDir = join(varDir, 'jwt');
    expect(statSync(jwtDir).mode & 0o777).toBe(0o700);
    for (const file of ['private.pem', 'passphrase']) expect(statSync(join(jwtDir, file)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(jwtDir, 'private.pem'), 'utf8')).toContain('-----BEGIN ENCRYPTED PRIVATE KEY-----');
    expect(logger.records.map((record) => `${record.level} ${record.message}`)).toEqual([
      'WARNING Generated a JWT key pair for local use (first start).',
      `WARNING JWT_PASSPHRASE is not set: using the passphrase generated in ${join(jwtDir, 'passphrase')} (git-ignored). Set JWT_PASSPHRASE outside local development.`,
    ]);
    expect(JSON.stringify(logger.records)).not.toContain(config.passphrase!);
    expect(loadJwtKeys(config).privateKey?.type).toBe('private');

    const firstKey = readFileSync(join(jwtDir, 'private.pem'), 'utf8');
    const again = securityConfigFromEnv({}, new MemoryLogger(), varDir);
    expect(again.passphrase).toBe(config.passphrase);
    expect(readFileSync(join(jwtDir, 'private.pem'), 'utf8')).toBe(firstKey);
  });

  it('with JWT_PASSPHRASE set, encrypts with it and writes no passphrase file', () => {
    const varDir = mkdtempSync(join(tmpdir(), 'api-host-var-'));
    const config = securityConfigFromEnv({ JWT_PASSPHRASE: 'from-the-environment-123' }, new MemoryLogger(), varDir);
    expect(config.passphrase).toBe('from-the-environment-123');
    expect(() => statSync(join(varDir, 'jwt', 'passphrase'))).toThrow();
    expect(loadJwtKeys(config).privateKey?.type).toBe('private');
  });

  it('three hosts starting at once end up with one key pair that every one of them can open', async () => {
    const varDir = mkdtempSync(join(tmpdir(), 'api-host-var-'));
    const script = `import(${JSON.stringify(securityConfigModule)}).then(async (m) => {
      const { loadJwtKeys } = await import('@switchboard/security');
      const { nullLogger } = await import('@switchboard/http-kernel');
      const keys = loadJwtKeys(m.securityConfigFromEnv({}, nullLogger, ${JSON.stringify(varDir)}));
      console.log(keys.publicKey.export({ type: 'spki', format: 'pem' }).length);
    })`;
    const starts = Array.from({ length: 3 }, () =>
      run(process.execPath, ['--input-type=module', '-e', script], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        timeout: 60_000,
      }),
    );
    const outputs = await Promise.all(starts);
    expect(outputs.map((output) => output.stdout.trim())).toEqual(['625', '625', '625']);
  }, 90_000);
});

/**
 * The host's security wiring over node:http with the real router and adapter: keys and
 * passphrase generated at first start into a fresh var/ folder, the demo users of
 * config/security-users.json, and a scan of everything sent or logged for the secrets.
 */
describe('example host security (POST /api/token, GET /api/me, GET /api/admin)', () => {
  const varDir = mkdtempSync(join(tmpdir(), 'api-host-var-'));
  const keys = securityConfigFromEnv({}, new MemoryLogger(), varDir);
  const sent: string[] = [];
  const debugTokens: string[] = [];
  let host: StartedHost;
  let base: string;

  beforeAll(async () => {
    host = await startHostInProcess({
      JWT_SECRET_KEY: keys.privateKeyPath,
      JWT_PUBLIC_KEY: keys.publicKeyPath,
      JWT_PASSPHRASE: keys.passphrase!,
    });
    base = host.running.url;
  });

  afterAll(() => host?.stop());

  async function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { accept: 'application/json', ...headers },
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    const debugToken = response.headers.get('x-debug-token');
    if (debugToken !== null) debugTokens.push(debugToken);
    sent.push(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
  }
  const login = (username: string, password: string) =>
    call('POST', '/api/token', { 'content-type': 'application/json' }, JSON.stringify({ username, password }));

  it('POST /api/token with the demo credentials → a Bearer token; GET /api/me with it → the user', async () => {
    const issued = await login('demo', 'demo-password');
    expect(issued.status).toBe(200);
    expect(issued.headers.get('cache-control')).toContain('no-store');
    const { token, token_type, expires_in } = issued.json();
    expect(token_type).toBe('Bearer');
    expect(expires_in).toBe(900);
    const me = await call('GET', '/api/me', { authorization: `Bearer ${String(token)}` });
    expect(me.status).toBe(200);
    expect(me.json()).toEqual({ username: 'demo', roles: ['ROLE_USER'] });
  });

  it('a wrong password and an unknown user get the same 401', async () => {
    const wrong = await login('demo', 'not-the-password');
    const unknown = await login('nobody', 'demo-password');
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.text).toBe('{"code":401,"message":"Invalid credentials."}');
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('a malformed token request → 400 through the error flow', async () => {
    const response = await call('POST', '/api/token', { 'content-type': 'application/json' }, '{"username":');
    expect(response.status).toBe(400);
    expect(response.json().detail).toMatch(/^The request body is not valid JSON/);
  });

  it('GET /api/me without a token → 401 JWT Token not found', async () => {
    const response = await call('GET', '/api/me');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(response.text).toBe('{"code":401,"message":"JWT Token not found"}');
  });

  it('GET /api/admin: 403 for the demo user, 200 for the admin', async () => {
    const demo = String((await login('demo', 'demo-password')).json()['token']);
    const admin = String((await login('admin', 'admin-password')).json()['token']);
    const denied = await call('GET', '/api/admin', { authorization: `Bearer ${demo}` });
    expect(denied.status).toBe(403);
    expect(denied.json()).toMatchObject({ detail: 'Access Denied by _is_granted(ROLE_ADMIN) on route "api_admin".' });
    const granted = await call('GET', '/api/admin', { authorization: `Bearer ${admin}` });
    expect(granted.status).toBe(200);
    expect(granted.json()).toEqual({ admin: 'admin' });
  });

  it('the profile of GET /api/me shows the firewall, the user and stateless in the security panel, and not the token', async () => {
    const token = String((await login('demo', 'demo-password')).json()['token']);
    const me = await call('GET', '/api/me', { authorization: `Bearer ${token}` });
    const debugToken = me.headers.get('x-debug-token');
    expect(debugToken).toMatch(/^[0-9a-f]+$/);
    let profile: { status: number; text: string } = { status: 0, text: '' };
    // Profiles are saved at kernel.terminate, after the response: poll briefly.
    for (let i = 0; i < 100 && profile.status !== 200; i++) {
      profile = await call('GET', `/_profiler/${debugToken}?format=json`);
      if (profile.status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(profile.status).toBe(200);
    expect(JSON.parse(profile.text).collectors.security).toEqual({
      firewall: 'api',
      user: { identifier: 'demo', roles: ['ROLE_USER'] },
      stateless: true,
      sessionUsages: [],
    });
    expect(profile.text).not.toContain(token.split('.')[2]);
  });

  it('an unknown /api path is 404, not 401', async () => {
    expect((await call('GET', '/api/nothing-here')).status).toBe(404);
  });

  it('nothing sent, logged or stored in a profile contains the passphrase or the private key', async () => {
    for (const token of debugTokens.splice(0)) {
      const stored = await fetch(`${base}/_profiler/${token}?format=json`);
      sent.push(`profile ${token} ${stored.status} ${await stored.text()}`);
    }
    expect(sent.filter((entry) => entry.startsWith('profile ') && / 200 /.test(entry.slice(0, 30))).length).toBeGreaterThan(5);
    const passphrase = keys.passphrase!;
    const keyLines = readFileSync(keys.privateKeyPath, 'utf8')
      .split('\n')
      .filter((line) => line.length === 64);
    expect(passphrase.length).toBeGreaterThan(20);
    expect(keyLines.length).toBeGreaterThan(10);
    const everything = [
      ...sent,
      ...host.logger.records.map((record) =>
        JSON.stringify(record, (_k, v: unknown) => (v instanceof Error ? `${v.message}\n${v.stack}` : v)),
      ),
    ].join('\n');
    expect(sent.length).toBeGreaterThan(8);
    for (const secret of [passphrase, ...keyLines]) expect(everything.includes(secret)).toBe(false);
  });
});

describe('a wrong passphrase at startup', () => {
  const varDir = mkdtempSync(join(tmpdir(), 'api-host-var-'));
  const keys = securityConfigFromEnv({ JWT_PASSPHRASE: 'the-right-passphrase-42' }, new MemoryLogger(), varDir);
  const env = { JWT_SECRET_KEY: keys.privateKeyPath, JWT_PUBLIC_KEY: keys.publicKeyPath, JWT_PASSPHRASE: 'a-wrong-passphrase-17' };

  it('createApp fails with a ConfigError naming the file and the problem, not the passphrase', async () => {
    const failure = createApp(loadConfig({ ...process.env, API_HOST_CONFIG: '', ...env }), { logger: new MemoryLogger() });
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(`Could not decrypt the JWT private key ${keys.privateKeyPath}: wrong passphrase or corrupt key.`);
  });

  it('the host process prints the problem and exits 78 (EX_CONFIG) without listening', async () => {
    const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
    const failure = await run(process.execPath, [main], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, PORT: '0', API_HOST_CONFIG: '', ...env },
      timeout: 60_000,
    }).then(
      () => null,
      (error: { code?: number; stdout: string; stderr: string }) => error,
    );
    expect(failure?.code).toBe(78);
    expect(failure?.stderr).toBe(
      `Configuration error: Could not decrypt the JWT private key ${keys.privateKeyPath}: wrong passphrase or corrupt key.\n`,
    );
    expect(failure?.stdout).not.toContain('listening');
    expect(`${failure?.stdout}${failure?.stderr}`).not.toContain('a-wrong-passphrase-17');
    expect(`${failure?.stdout}${failure?.stderr}`).not.toContain('the-right-passphrase-42');
  }, 60_000);
});
