/**
 * The connection against a real redis-server: commands and scripts by SHA (again after Redis forgot
 * them); an outage (the server stopped) logged once and its end once; a Redis connected but not
 * answering (paused) bounded by the deadline, its queue bounded too; credentials in no message.
 */
import { MemoryLogger } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServer, type RedisInspector } from '../../../test/kit/services/redis-server.js';
import { RedisCommandTimeoutError, RedisConnection, RedisScript, type RedisConnectionOptions } from '../src/index.js';

let redis: RedisServer;
let inspector: RedisInspector;
const connections: RedisConnection[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
  inspector = await redis.inspector();
});

afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  inspector?.destroy();
  await redis?.close();
});

function connect(options: Partial<RedisConnectionOptions> = {}): RedisConnection {
  const connection = new RedisConnection({ url: redis.url, commandTimeoutMs: 200, subject: 'Test store', ...options });
  connections.push(connection);
  return connection;
}

const SUM = new RedisScript("return tonumber(ARGV[1]) + redis.call('INCR', KEYS[1])");

describe('RedisConnection on a real redis-server', () => {
  it('runs commands, and scripts by their SHA: sent whole once when Redis does not know them, again after it forgot them', async () => {
    const connection = connect();
    expect(await connection.waitUntilAvailable(10_000)).toBe(true);
    expect(await connection.run((client) => client.set('test:plain', 'value'))).toBe('OK');
    expect(await connection.run((client) => client.get('test:plain'))).toBe('value');
    expect(await inspector.scriptExists(SUM.sha)).toEqual([0]);
    expect(await connection.evaluate(SUM, ['test:counter'], ['10'])).toBe(11);
    expect(await inspector.scriptExists(SUM.sha)).toEqual([1]);
    expect(await connection.evaluate(SUM, ['test:counter'], ['10'])).toBe(12);
    await inspector.scriptFlush();
    expect(await connection.evaluate(SUM, ['test:counter'], ['10'])).toBe(13);
    expect(connection.available).toBe(true);
  });

  it('the server stopped: commands fail at once, the outage is said once; restarted: available again, said once', async () => {
    const logger = new MemoryLogger();
    const calls: string[] = [];
    const connection = connect({
      logger,
      duringOutage: () => 'Checks fail.',
      afterOutage: () => ({ note: '(2 things lost)', fields: { lost: 2 } }),
      onReady: () => calls.push('ready'),
      onUnavailable: () => calls.push('unavailable'),
    });
    expect(await connection.waitUntilAvailable(10_000)).toBe(true);
    expect(calls).toEqual(['ready']);
    await redis.stop();
    for (let attempt = 0; attempt < 5; attempt++) {
      const failure = await connection.run((client) => client.ping()).catch((error: unknown) => error);
      // At once, not at the deadline: nothing waits in the client while it is disconnected.
      expect(failure).toBeInstanceOf(Error);
      expect(failure).not.toBeInstanceOf(RedisCommandTimeoutError);
    }
    expect(connection.available).toBe(false);
    expect(connection.outage?.reason).toBeTypeOf('string');
    expect(calls).toEqual(['ready', 'unavailable']);
    await redis.start();
    expect(await connection.waitUntilAvailable(20_000)).toBe(true);
    expect(calls).toEqual(['ready', 'unavailable', 'ready']);
    expect(connection.outage).toBeNull();
    expect(logger.records.map((record) => `${record.level} ${record.message}`)).toEqual([
      expect.stringMatching(/^ERROR Test store: Redis at 127\.0\.0\.1:\d+ is unavailable \(.+\)\. Checks fail\. Said once per outage\.$/),
      expect.stringMatching(/^INFO Test store: Redis at 127\.0\.0\.1:\d+ is available again after \d+ s \(2 things lost\)\.$/),
    ]);
    expect(logger.records[1]!.context).toMatchObject({ redis: `127.0.0.1:${redis.port}`, lost: 2 });
  }, 60_000);

  it('Redis connected but not answering (paused): each command fails at its deadline, the queue is bounded, close ends, all while still paused', async () => {
    const logger = new MemoryLogger();
    const connection = connect({ logger, maxQueuedCommands: 10 });
    expect(await connection.waitUntilAvailable(10_000)).toBe(true);
    const pause = await redis.pauseAll(120_000);
    try {
      const timedOut = await connection.run((client) => client.get('test:plain')).catch((error: unknown) => error);
      expect(timedOut).toBeInstanceOf(RedisCommandTimeoutError);
      expect((timedOut as RedisCommandTimeoutError).message).toBe('no answer within 200 ms');
      await expect(connection.evaluate(SUM, ['test:counter'], ['1'])).rejects.toBeInstanceOf(RedisCommandTimeoutError);
      // Two commands still wait for their answers: eight more fill the queue, and the next two fail at once.
      const failures = await Promise.all(
        Array.from({ length: 10 }, () => connection.run((client) => client.ping()).catch((error: unknown) => error)),
      );
      expect(failures.filter((error) => error instanceof RedisCommandTimeoutError)).toHaveLength(8);
      expect(failures.slice(8).map((error) => (error as Error).message)).toEqual(['The queue is full', 'The queue is full']);
      expect(connection.isReady).toBe(true);
      expect(connection.available).toBe(false);
      await connection.close();
      expect(connection.closed).toBe(true);
      expect(pause.stillPaused()).toBe(true);
      expect(logger.records.map((record) => `${record.level} ${record.message}`)).toEqual([
        expect.stringMatching(
          /^ERROR Test store: Redis at 127\.0\.0\.1:\d+ is unavailable \(no answer within 200 ms\)\. Said once per outage\.$/,
        ),
      ]);
    } finally {
      await redis.restart();
    }
  }, 60_000);

  it('a paused Redis answering after the deadline ends the outage', async () => {
    const logger = new MemoryLogger();
    const connection = connect({ logger });
    expect(await connection.waitUntilAvailable(10_000)).toBe(true);
    // Writes only: the inspector can still end this pause.
    await inspector.sendCommand(['CLIENT', 'PAUSE', '60000', 'WRITE']);
    let pending: Promise<unknown>;
    try {
      const timedOut = await connection.run((client) => client.set('test:late', '1')).catch((error: unknown) => error);
      expect(timedOut).toBeInstanceOf(RedisCommandTimeoutError);
      pending = (timedOut as RedisCommandTimeoutError).pending;
      expect(connection.available).toBe(false);
    } finally {
      await inspector.sendCommand(['CLIENT', 'UNPAUSE']);
    }
    expect(await pending).toBe('OK');
    expect(connection.available).toBe(true);
    expect(logger.records.map((record) => record.level)).toEqual(['ERROR', 'INFO']);
  });

  it('says where Redis is without the credentials of its URL', async () => {
    const logger = new MemoryLogger();
    const connection = connect({ url: 'redis://someone:s3cret-pass@127.0.0.1:1/2', logger });
    expect(connection.location).toBe('127.0.0.1:1/2');
    expect(await connection.waitUntilAvailable(500)).toBe(false);
    await expect(connection.run((client) => client.ping())).rejects.toThrow();
    expect(logger.records).toHaveLength(1);
    expect(JSON.stringify(logger.records)).not.toContain('s3cret');
    expect(logger.records[0]!.message).toContain('Redis at 127.0.0.1:1/2 is unavailable');
  });

  it('refuses a deadline that is not positive', () => {
    expect(() => new RedisConnection({ commandTimeoutMs: 0, subject: 'Test store' })).toThrow(
      new RangeError('commandTimeoutMs must be positive, got 0.'),
    );
  });
});
