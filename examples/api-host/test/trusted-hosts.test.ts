import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { rawExchange, statusOfRaw } from '../../../test/kit/raw-http.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { warnIfDebugIsExposed } from '../src/exposed-debug-warning.js';
import { startHostInProcess, startHostProcess, type HostProcess } from './support/start-host.js';

/** One request over a raw socket with `host` as its Host header; the status. */
async function statusFor(port: number, requestLine: string, host: string, body = ''): Promise<number> {
  const head = `${requestLine} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n`;
  const framing = body === '' ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
  // A password check runs at the lowest CPU priority: on a busy machine it takes a while.
  return statusOfRaw(await rawExchange(port, `${head}${framing}\r\n${body}`, { waitMs: 60_000 }));
}

const LOGIN = JSON.stringify({ username: 'demo', password: 'wrong' });

describe('example host: DNS rebinding (the host process in debug mode, default trusted hosts)', () => {
  let host: HostProcess;
  let port = 0;
  beforeAll(async () => {
    host = await startHostProcess({ APP_DEBUG: '1', API_HOST_CONFIG: '' });
    port = Number(new URL(await host.url).port);
  }, 120_000);
  afterAll(async () => {
    host.child.kill('SIGTERM');
    await host.exited;
  });

  it.each(['evil.example', 'evil.example:8000', 'localhost.evil.example', '127.0.0.1.nip.io'])(
    'refuses Host %s with 400 on /_profiler and /api/token, before the application',
    async (name) => {
      expect(await statusFor(port, 'GET /_profiler/latest', name)).toBe(400);
      expect(await statusFor(port, 'POST /api/token', name, LOGIN)).toBe(400);
    },
  );

  it.each(['localhost', '127.0.0.1', '[::1]'])("serves the machine's own names (%s)", { timeout: 130_000 }, async (name) => {
    expect(await statusFor(port, 'GET /_profiler/latest', `${name}:${port}`)).not.toBe(400);
    expect(await statusFor(port, 'POST /api/token', `${name}:${port}`, LOGIN)).toBe(401);
  });
});

describe('example host: TRUSTED_HOSTS and its defaults', () => {
  it('serves only the listed hosts when TRUSTED_HOSTS is set', async () => {
    const host = await startHostInProcess({ TRUSTED_HOSTS: 'api.example.com, *.tenants.example.com' });
    try {
      const port = host.running.port;
      expect(await statusFor(port, 'GET /health', 'api.example.com')).toBe(200);
      expect(await statusFor(port, 'GET /health', 'a.tenants.example.com:443')).toBe(200);
      expect(await statusFor(port, 'GET /health', '127.0.0.1')).toBe(400);
      expect(await statusFor(port, 'GET /health', 'evil.example')).toBe(400);
    } finally {
      await host.stop();
    }
  });

  it('defaults to the host of APP_BASE_URL when it is set, else the loopback names', () => {
    const base = { API_HOST_CONFIG: '' };
    expect(loadConfig({ ...base, APP_BASE_URL: 'https://v2.api.example.com:8443' }).trustedHosts).toEqual(['v2.api.example.com']);
    expect(loadConfig({ ...base, APP_BASE_URL: 'http://[::1]:8000' }).trustedHosts).toEqual(['[::1]']);
    expect(loadConfig(base).trustedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(loadConfig({ ...base, TRUSTED_HOSTS: 'a.example, b.example' }).trustedHosts).toEqual(['a.example', 'b.example']);
  });

  it('refuses a pattern that is no host as a configuration error', () => {
    expect(() => loadConfig({ API_HOST_CONFIG: '', TRUSTED_HOSTS: 'https://api.example.com' })).toThrow(ConfigError);
  });

  it('warns when debug mode listens on an address other machines reach', () => {
    const warnings = (env: Record<string, string>): string[] => {
      const logger = new MemoryLogger();
      warnIfDebugIsExposed(loadConfig({ API_HOST_CONFIG: '', ...env }), logger);
      return logger.records.filter((record) => record.level === 'WARNING').map((record) => record.message);
    };
    expect(warnings({ APP_HOST: '0.0.0.0', APP_DEBUG: '1' })).toEqual([
      expect.stringContaining('APP_HOST=0.0.0.0 is not a loopback address'),
    ]);
    expect(warnings({ APP_HOST: '::', APP_DEBUG: '1' })).toHaveLength(1);
    expect(warnings({ APP_HOST: '0.0.0.0', APP_DEBUG: '0' })).toEqual([]);
    for (const loopback of ['127.0.0.1', '127.0.0.2', '::1', 'localhost'])
      expect(warnings({ APP_HOST: loopback, APP_DEBUG: '1' })).toEqual([]);
  });
});
