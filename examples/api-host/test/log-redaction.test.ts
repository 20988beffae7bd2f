/**
 * What the host process writes to its log about hostile request data, in each `LOG_FORMAT`:
 * secrets in the query and the `Referer` (a value named like a secret, URL userinfo) never
 * reach a line, neither the access line's `path` nor the 404's message and stack, and control
 * characters (C0, C1, bidirectional overrides) are written as escapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawResponses } from '../../../test/kit/raw-http.js';
import { startHostProcess, type HostProcess } from './support/start-host.js';

/** Each secret ends in `-secret-N`, so one pattern finds any that leaked. */
const SECRET_QUERY = 'password=pw-secret-1&api_key=key-secret-2&access_token=at-secret-3&token=tk-secret-4&code=code-secret-5&page=2';
const SECRET_REFERER = 'https://ref-user:ref-secret-6@ref.example/page?token=ref-secret-7';
const LEAK = /-secret-\d/;
/** C0 (but the line feed ending a line), DEL, C1, bidirectional controls, line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the test
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * A `Referer` as bytes on the wire (Node reads header bytes as Latin-1): C1 controls (0x85 next
 * line, 0x9b CSI), a tab, U+202E in UTF-8, after a URL with secrets.
 */
const HOSTILE_REFERER = Buffer.concat([
  Buffer.from(`Referer: ${SECRET_REFERER}&x=`),
  Buffer.from([0x85, 0x9b]),
  Buffer.from('31m\tnext\u202e', 'utf8'),
]).toString('latin1');

function get(target: string, headers: string[] = []): string {
  return [`GET ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Accept: application/json', 'Connection: close', ...headers, '', ''].join('\r\n');
}

async function started(env: Record<string, string>): Promise<{ host: HostProcess; port: number }> {
  const host = await startHostProcess({ APP_DEBUG: '1', ...env });
  return { host, port: Number(new URL(await host.url).port) };
}

async function stopped(host: HostProcess | undefined): Promise<void> {
  host?.child.kill('SIGTERM');
  await host?.exited;
}

describe('LOG_FORMAT=json, the host process', () => {
  let host: HostProcess;
  let port: number;
  beforeAll(async () => ({ host, port } = await started({ LOG_FORMAT: 'json' })), 120_000);
  afterAll(() => stopped(host));

  /** The JSON records written once the access line of `marker` is there. */
  async function recordsAfter(marker: string): Promise<Array<Record<string, unknown>>> {
    const parsed = (): Array<Record<string, unknown>> =>
      host
        .log()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    await expect
      .poll(() => parsed().some((record) => record['channel'] === 'access' && String(record['path']).includes(marker)), { timeout: 30_000 })
      .toBe(true);
    return parsed();
  }

  /** The serialized exception of the record whose exception message names `path`. */
  function exceptionAbout(records: Array<Record<string, unknown>>, path: string): { message: string; stack: string } {
    const exceptions = records.map((record) => record['err'] as { message: string; stack: string } | undefined);
    return exceptions.find((exception) => exception?.message.includes(path) === true)!;
  }

  it('hides the query secrets and Referer userinfo of a 404 in the access path, the message, and the exception', async () => {
    const exchange = await rawResponses(port, get(`/nope-json?${SECRET_QUERY}`, [`Referer: ${SECRET_REFERER}`]));
    expect(exchange.responses[0]?.status).toBe(404);
    const records = await recordsAfter('/nope-json');
    const access = records.find((record) => record['channel'] === 'access' && String(record['path']).includes('/nope-json'))!;
    expect(access['path']).toBe(
      '/nope-json?password=[redacted]&api_key=[redacted]&access_token=[redacted]&token=[redacted]&code=[redacted]&page=2',
    );
    const exception = exceptionAbout(records, '/nope-json');
    expect(exception.message).toContain('(from "https://[redacted]@ref.example/page?token=[redacted]")');
    expect(exception.stack).toContain('(from "https://[redacted]@ref.example/page?token=[redacted]")');
    expect(host.log()).not.toMatch(LEAK);
  });

  it('writes the control characters of a Referer as escapes', async () => {
    const exchange = await rawResponses(port, get('/nope-controls', [HOSTILE_REFERER]));
    expect(exchange.responses[0]?.status).toBe(404);
    const records = await recordsAfter('/nope-controls');
    expect(exceptionAbout(records, '/nope-controls').message).toContain('\\x85\\x9b31m\\x09next');
    expect(host.log()).not.toMatch(RAW_CONTROL);
  });
});

describe('LOG_FORMAT=human, the host process', () => {
  let host: HostProcess;
  let port: number;
  beforeAll(async () => ({ host, port } = await started({})), 120_000);
  afterAll(() => stopped(host));

  it('writes the control characters of a Referer as escapes, and hides its secrets', async () => {
    const exchange = await rawResponses(port, get('/nope-human', [HOSTILE_REFERER]));
    expect(exchange.responses[0]?.status).toBe(404);
    await expect.poll(() => host.log().includes('/nope-human'), { timeout: 30_000 }).toBe(true);
    const line = host
      .log()
      .split('\n')
      .find((text) => text.includes('/nope-human'))!;
    expect(line).toContain('\\x85\\x9b31m\\x09next');
    expect(line).not.toMatch(RAW_CONTROL);
    expect(host.log()).not.toMatch(LEAK);
  });
});
