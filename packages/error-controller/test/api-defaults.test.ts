/**
 * The options an API sets, over a real socket: problem+json as the default format, a 4xx's
 * message as `detail`, log levels by status, and a plain `pino()` as the logger.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { defineController, HttpError, NotFoundHttpError, nullLogger, type Logger } from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { serveKernel, testKernel, type ServedKernel } from '../../../test/kit/index.js';
import { ErrorListener, type ErrorListenerOptions } from '../src/index.js';

const routes = new RouteCollection()
  .add('note', '/notes/99', {
    controller: defineController([], function missingNote(): never {
      throw new NotFoundHttpError('Note 99 not found.');
    }),
  })
  .add('quiet_note', '/notes/100', {
    controller: defineController([], function quietNote(): never {
      throw new NotFoundHttpError('Note 100 belongs to tenant 7.', { exposeMessage: false });
    }),
  })
  .add('unavailable', '/unavailable', {
    controller: defineController([], function unavailable(): never {
      throw new HttpError(503, 'Replica db-7 lags by 40 s.');
    }),
  })
  .add('boom', '/boom', {
    controller: defineController([], function boom(): never {
      throw new TypeError('database unreachable');
    }),
  });

/** A real pino logger writing JSON lines into `lines`. */
function pinoInto(lines: Array<Record<string, unknown>>): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return pino({ level: 'info' }, sink);
}

let served: ServedKernel | undefined;

afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function serveWith(options: Omit<ErrorListenerOptions, 'debug'>): Promise<string> {
  const { kernel } = testKernel({
    subscribers: [new RouterListener(new Router(routes)), new ErrorListener({ debug: false, logger: nullLogger, ...options })],
    textErrors: false,
  });
  served = await serveKernel(kernel);
  return served.origin;
}

describe('error answers an API wants', () => {
  it('answers `*/*` and a missing Accept with problem+json when it is the default format', async () => {
    const origin = await serveWith({ defaultFormat: 'problem+json' });
    for (const headers of [{ accept: '*/*' }, {}] as Array<Record<string, string>>) {
      const response = await fetch(`${origin}/notes/99`, { headers });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Note 99 not found.' });
    }
    // A browser still gets its page.
    const page = await fetch(`${origin}/notes/99`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
  });

  it("shows a 4xx's message as detail outside debug mode, unless the error or the listener says not to, and never a 5xx's", async () => {
    const origin = await serveWith({ defaultFormat: 'problem+json' });
    const detailOf = async (path: string): Promise<unknown> =>
      ((await (await fetch(`${origin}${path}`)).json()) as { detail: unknown }).detail;
    expect(await detailOf('/notes/99')).toBe('Note 99 not found.');
    expect(await detailOf('/notes/100')).toBe('Not Found');
    expect(await detailOf('/unavailable')).toBe('Service Unavailable');
    expect(await detailOf('/boom')).toBe('Internal Server Error');
    // The router's own 404 quotes the URL and the Referer: for the log, not the client.
    expect(await detailOf('/nowhere')).toBe('Not Found');
    await served?.close();
    served = undefined;
    const hidden = await serveWith({ defaultFormat: 'problem+json', exposeClientErrorMessages: false });
    const response = await fetch(`${hidden}/notes/99`);
    expect(((await response.json()) as { detail: unknown }).detail).toBe('Not Found');
  });
});

describe('error logging through a real pino()', () => {
  it('writes a 500 with its message and stack under err', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const origin = await serveWith({ logger: pinoInto(lines) });
    expect((await fetch(`${origin}/boom`)).status).toBe(500);
    const record = lines.find((line) => line['channel'] === 'request');
    expect(record).toMatchObject({ level: 60, err: { type: 'TypeError', message: 'database unreachable' } });
    const stack = (record!['err'] as { stack: string }).stack;
    expect(stack).toContain('TypeError: database unreachable');
    expect(stack).toMatch(/\n\s+at .*boom/);
  });

  it("logs at the level `logLevels` gives a status: a 4xx's line without a stack, a 5xx's with it", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const origin = await serveWith({ logger: pinoInto(lines), logLevels: { '4xx': 'info', 500: 'error' } });
    expect((await fetch(`${origin}/notes/99`)).status).toBe(404);
    expect((await fetch(`${origin}/unavailable`)).status).toBe(503);
    expect((await fetch(`${origin}/boom`)).status).toBe(500);
    const records = lines.filter((line) => line['channel'] === 'request');
    expect(records.map((record) => [record['level'], (record['err'] as { message: string }).message])).toEqual([
      [30, 'Note 99 not found.'],
      [60, 'Replica db-7 lags by 40 s.'],
      [50, 'database unreachable'],
    ]);
    expect(records[0]!['err']).toMatchObject({ type: 'NotFoundHttpError', message: 'Note 99 not found.' });
    expect((records[0]!['err'] as { stack?: string }).stack ?? '').toBe('');
    expect((records[2]!['err'] as { stack: string }).stack).toMatch(/\n\s+at .*boom/);
  });

  it("takes pino's call forms and lower-case level names", () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pinoInto(lines);
    logger.info('a message alone');
    logger.warn({ noteId: 99 }, 'with context');
    expect(lines.map((line) => [line['level'], line['msg'], line['noteId']])).toEqual([
      [30, 'a message alone', undefined],
      [40, 'with context', 99],
    ]);
    expect(new HttpError(404, 'x', { logLevel: 'warn' }).logLevel).toBe('WARNING');
  });
});
