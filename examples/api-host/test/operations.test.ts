/**
 * The host's operations wiring over a real socket: request ids, the access line, `/health`
 * (liveness) and `/ready` (readiness), and the JSON log format.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostLogger } from '../src/operations/host-logger.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

let host: StartedHost;
beforeAll(async () => {
  host = await startHostInProcess({ TRUSTED_PROXIES: 'loopback' });
});
afterAll(async () => {
  await host?.stop();
});

const get = (path: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${host.running.url}${path}`, { headers: { accept: 'application/json', ...headers } });

describe('operations in the example host', () => {
  it('answers /health (liveness) and /ready (readiness, the database checked), each with a request id', async () => {
    const health = await get('/health');
    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]{8}$/);
    const ready = await get('/ready', { 'x-request-id': 'probe-1' });
    expect(ready.status).toBe(200);
    expect(ready.headers.get('x-request-id')).toBe('probe-1');
    expect(ready.headers.get('cache-control')).toContain('no-store');
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
  });

  it('puts the request id in a problem document', async () => {
    const missing = await get('/nope', { 'x-request-id': 'lost-1' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404, requestId: 'lost-1' });
  });

  it('reports draining on /ready once shutdown starts, and writes an access line per request', async () => {
    host.app.readiness.startDraining();
    const draining = await get('/ready');
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ status: 'draining', checks: {} });
    expect((await get('/health')).status).toBe(200);
    await host.stop(); // waits for every kernel.terminate
    const lines = host.logger.records.filter((record) => record.channel === 'access');
    expect(lines.map((line) => `${line.context['route']} ${line.context['status']}`)).toEqual([
      'health 200',
      'ready 200',
      'null 404',
      'ready 503',
      'health 200',
    ]);
    expect(lines[1]!.context).toMatchObject({ method: 'GET', path: '/ready', requestId: 'probe-1', clientIp: '127.0.0.1' });
  });
});

describe('LOG_FORMAT', () => {
  it('json: one JSON object per record through pino, bindings and context as properties, errors with their stack, messages redacted', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createHostLogger({ LOG_FORMAT: 'json' }, 'INFO', sink);
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    logger.child({ channel: 'access' }).info({ requestId: 'r-1', status: 200 }, `GET /x?token=${jwt} 200`);
    logger.debug({}, 'not kept at INFO');
    logger.child({ channel: 'request' }).fatal({ err: new TypeError('broken') }, 'Uncaught Error');
    const [access, failure] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(access).toMatchObject({ level: 30, channel: 'access', requestId: 'r-1', status: 200, msg: 'GET /x?token=[redacted] 200' });
    expect(failure).toMatchObject({ level: 60, channel: 'request', err: { type: 'TypeError', message: 'broken' } });
    expect((failure!['err'] as { stack: string }).stack).toContain('TypeError: broken');
  });

  it('refuses an unknown format', () => {
    expect(() => createHostLogger({ LOG_FORMAT: 'xml' }, 'INFO')).toThrow('LOG_FORMAT must be "human" or "json", got "xml".');
  });
});
