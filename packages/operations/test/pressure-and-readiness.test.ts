/**
 * Load shedding and readiness in a kernel wired as a host wires it (real router, real error
 * listener), served by the node adapter on 127.0.0.1 and called over HTTP. Pressure is driven
 * through the monitor's `readings` and `now` options, and once by a route that really blocks the
 * event loop, with a threshold the block passes by far.
 */
import { defineController, JsonResponse, MemoryLogger, type LogRecord } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostServer, type TestServer } from '../../../test/kit/host-kernel.js';
import { PressureListener, PressureMonitor, Readiness, RequestIdListener, type PressureReadings } from '../src/index.js';

const ok = defineController([], () => new JsonResponse({ ok: true }));
const CALM: PressureReadings = { eventLoopDelayMs: 1, eventLoopUtilization: 0.1, heapUsedBytes: 10e6, rssBytes: 50e6 };

let readings: PressureReadings = CALM;
let clock = 1_000_000;
const monitorLog: LogRecord[] = [];
const driven = new PressureMonitor({
  maxEventLoopDelayMs: 100,
  maxRssBytes: 1e9,
  readings: () => readings,
  now: () => clock,
  logger: new MemoryLogger(monitorLog),
});

const dependency = { up: true };
const readiness = new Readiness({
  checks: {
    store: () => {
      if (!dependency.up) throw new Error('connection refused (password=hunter2)');
    },
  },
});
let releaseGate: () => void = () => {};
const gate = new Promise<void>((resolve) => (releaseGate = resolve));
let arrived: () => void = () => {};
const reachedController = new Promise<void>((resolve) => (arrived = resolve));

const drivenRoutes = {
  'GET /cheap': ok,
  'GET /report': { controller: ok, defaults: { _load_shedding: 'expensive' } },
  'GET /health': { controller: ok, defaults: { _load_shedding: 'exempt' } },
  'GET /_profiler/:token': { name: '_profiler', controller: ok },
  'GET /ready': { controller: readiness.controller, defaults: { _load_shedding: 'exempt' } },
  'GET /ready-after-gate': {
    controller: defineController(['request'], async (request) => {
      arrived();
      await gate;
      return readiness.controller(request as never);
    }),
  },
};

let expensiveOnly: TestServer;
let everything: TestServer;
beforeAll(async () => {
  [expensiveOnly, everything] = await Promise.all([
    startHostServer(drivenRoutes, {
      subscribers: [new RequestIdListener(), new PressureListener({ monitor: driven, shed: 'expensive' })],
      serve: { onShutdownStart: () => readiness.startDraining() },
    }),
    startHostServer(drivenRoutes, { subscribers: [new PressureListener({ monitor: driven })] }),
  ]);
});
afterAll(async () => {
  releaseGate();
  await Promise.all([expensiveOnly.close(), everything.close()]);
});

const statuses = async (server: TestServer, paths: string[]): Promise<number[]> =>
  Promise.all(paths.map(async (path) => (await server.fetch(path)).status));

describe('PressureListener', () => {
  it('sheds expensive routes with 503 problem+json and Retry-After while cheap ones and /health answer, then recovers', async () => {
    driven.sample();
    expect(await statuses(expensiveOnly, ['/cheap', '/report', '/health'])).toEqual([200, 200, 200]);

    readings = { ...CALM, eventLoopDelayMs: 250 };
    driven.sample();
    expect(driven.underPressure).toBe(true);
    expect(driven.causes).toEqual(['eventLoopDelay']);
    const shed = await expensiveOnly.fetch('/report', { headers: { accept: 'application/json' } });
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    expect(shed.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(shed.body)).toMatchObject({ status: 503, requestId: shed.headers.get('x-request-id') });
    expect(await statuses(expensiveOnly, ['/cheap', '/health', '/ready'])).toEqual([200, 200, 200]);

    // Pressure that lasted longer asks clients to wait longer, within 60 s.
    clock += 7_400;
    readings = { ...CALM, rssBytes: 2e9 };
    driven.sample();
    expect((await expensiveOnly.fetch('/report')).headers.get('retry-after')).toBe('8');
    clock += 600_000;
    expect((await expensiveOnly.fetch('/report')).headers.get('retry-after')).toBe('60');

    readings = CALM;
    driven.sample();
    expect(driven.underPressure).toBe(false);
    // One record as pressure starts and one as it ends, not one per shed request.
    expect(monitorLog.map((record) => `${record.channel}.${record.level}: ${record.message}`)).toEqual([
      'pressure.WARNING: Under pressure (eventLoopDelay): shedding load.',
      'pressure.INFO: Pressure over after 607400 ms.',
    ]);
    expect(await statuses(expensiveOnly, ['/cheap', '/report', '/health'])).toEqual([200, 200, 200]);
  });

  it('sheds every route but the exempt and the profiler when not limited to expensive ones', async () => {
    readings = { ...CALM, eventLoopDelayMs: 250 };
    driven.sample();
    try {
      expect(await statuses(everything, ['/cheap', '/report', '/health', '/_profiler/abc', '/ready'])).toEqual([503, 503, 200, 200, 200]);
    } finally {
      readings = CALM;
      driven.sample();
    }
    expect(await statuses(everything, ['/cheap', '/report'])).toEqual([200, 200]);
  });

  it('goes under pressure when a route really blocks the event loop', async () => {
    // An 800 ms busy loop between two samples keeps the loop busy for most of that interval; the
    // threshold, 20 % busy, fails only if the loop also sat idle for more than 3.2 s in between.
    // The load route itself is exempt, as a health route would be, so that it answers whatever the
    // readings were before.
    const real = new PressureMonitor({ maxEventLoopUtilization: 0.2, sampleInterval: 60_000 }).start();
    const blocking = await startHostServer(
      {
        'GET /block': {
          controller: defineController([], () => {
            const until = performance.now() + 800;
            while (performance.now() < until) {}
            return new JsonResponse({ blocked: true });
          }),
          defaults: { _load_shedding: 'exempt' },
        },
        'GET /cheap': ok,
        'GET /health': { controller: ok, defaults: { _load_shedding: 'exempt' } },
      },
      { subscribers: [new PressureListener({ monitor: real })] },
    );
    try {
      real.sample();
      expect((await blocking.fetch('/block')).status).toBe(200);
      real.sample();
      expect(real.lastReadings!.eventLoopUtilization).toBeGreaterThan(0.2);
      expect(real.causes).toEqual(['eventLoopUtilization']);
      const shed = await blocking.fetch('/cheap');
      expect(shed.status).toBe(503);
      expect(Number(shed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await blocking.fetch('/health')).status).toBe(200);
    } finally {
      real.stop();
      await blocking.close();
    }
  });
});

describe('Readiness', () => {
  it('answers 503 while a dependency check fails, without saying why, and 200 once it passes', async () => {
    dependency.up = false;
    const down = await expensiveOnly.fetch('/ready');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ status: 'unavailable', checks: { store: 'failed' } });
    expect(down.headers.get('cache-control')).toContain('no-store');
    dependency.up = true;
    const up = await expensiveOnly.fetch('/ready');
    expect(up.status).toBe(200);
    expect(JSON.parse(up.body)).toEqual({ status: 'ready', checks: { store: 'ok' } });
  });

  it('counts a check that does not settle in time as failed', async () => {
    const slow = new Readiness({ checks: { stuck: () => new Promise(() => {}) }, checkTimeoutMs: 10 });
    expect(await slow.report()).toEqual({ ready: false, draining: false, checks: { stuck: 'timeout' } });
  });

  it('answers 503 draining as soon as the server starts shutting down, before its connections close', async () => {
    const inFlight = expensiveOnly.fetch('/ready-after-gate');
    await reachedController;
    const closing = expensiveOnly.close();
    expect(readiness.draining).toBe(true);
    releaseGate();
    const answer = await inFlight;
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({ status: 'draining', checks: {} });
    await closing;
  });
});
