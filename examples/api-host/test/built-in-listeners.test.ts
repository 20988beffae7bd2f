/**
 * The built-in listeners as the example host registers them (debug mode with the per-client rate
 * limit on, plus the middleware's fall-through listener): the table of docs/events.md lists exactly these, with the same priority,
 * name and package, and `removeSubscriber` takes each subscriber's listeners away again.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as compression from '@switchboard/compression';
import * as cors from '@switchboard/cors';
import * as database from '@switchboard/database';
import * as errorController from '@switchboard/error-controller';
import * as files from '@switchboard/files';
import * as httpCache from '@switchboard/http-cache';
import * as httpKernel from '@switchboard/http-kernel';
import * as httpKernelLocale from '@switchboard/http-kernel/locale';
import * as httpKernelTracing from '@switchboard/http-kernel/tracing';
import * as httpKernelView from '@switchboard/http-kernel/view';
import * as metrics from '@switchboard/metrics';
import { EventDispatcher, type EventSubscriber, type KernelEventMap, KernelEvents, nullLogger } from '@switchboard/http-kernel';
import * as nodeAdapter from '@switchboard/node-adapter';
import * as openapi from '@switchboard/openapi';
import * as operations from '@switchboard/operations';
import * as payload from '@switchboard/payload';
import * as profiler from '@switchboard/profiler';
import * as rateLimit from '@switchboard/rate-limit';
import * as router from '@switchboard/router';
import * as security from '@switchboard/security';
import * as securityHeaders from '@switchboard/security-headers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type App, createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { TEST_DEFAULTS } from './support/start-host.js';
import { createTestDatabase, type TestDatabase } from '../../../test/kit/services/database-servers.js';

interface ListenerRow {
  event: string;
  priority: number;
  name: string;
  package: string;
}

/** Each package's public exports, its subpath entries included. */
const PACKAGES: Record<string, object> = {
  compression,
  cors,
  database,
  'error-controller': errorController,
  files,
  'http-cache': httpCache,
  'http-kernel': { ...httpKernel, ...httpKernelLocale, ...httpKernelTracing, ...httpKernelView },
  metrics,
  'node-adapter': nodeAdapter,
  openapi,
  operations,
  payload,
  profiler,
  'rate-limit': rateLimit,
  router,
  security,
  'security-headers': securityHeaders,
};

/** The package whose public index exports the class `className`. */
function packageOf(className: string): string {
  const owners = Object.entries(PACKAGES).filter(([, exports]) => className in exports);
  return owners.length === 1 ? owners[0]![0] : `(${owners.map(([name]) => name).join(', ') || 'no package'})`;
}

/** The rows of the "Built-in listeners" table of docs/events.md, as written. */
function documentedRows(): ListenerRow[] {
  const text = readFileSync(resolve(import.meta.dirname, '../../../docs/events.md'), 'utf8');
  const lines = text.slice(text.indexOf('## Built-in listeners')).split('\n');
  const start = lines.findIndex((line) => line.startsWith('| event'));
  const end = lines.findIndex((line, index) => index > start && !line.startsWith('|'));
  return lines.slice(start + 2, end === -1 ? undefined : end).map((line) => {
    const [event, priority, name, pkg] = line
      .split('|')
      .slice(1, 5)
      .map((cell) => cell.trim());
    return { event: event!, priority: Number(priority!.replace('−', '-')), name: name!.replaceAll('`', ''), package: pkg! };
  });
}

/** Lifecycle order of the events, as docs/events.md lists them. */
const EVENT_ORDER: readonly string[] = [
  KernelEvents.REQUEST,
  KernelEvents.CONTROLLER,
  KernelEvents.CONTROLLER_ARGUMENTS,
  KernelEvents.VIEW,
  KernelEvents.EXCEPTION,
  KernelEvents.RESPONSE,
  KernelEvents.FINISH_REQUEST,
  KernelEvents.TERMINATE,
];

/** The listeners registered on `dispatcher`, in call order within each event, events in lifecycle order. */
function registeredRows(dispatcher: EventDispatcher<KernelEventMap>): ListenerRow[] {
  return [...dispatcher.getAllListeners()]
    .sort(([a], [b]) => EVENT_ORDER.indexOf(a) - EVENT_ORDER.indexOf(b))
    .flatMap(([event, listeners]) =>
      listeners.map(({ priority, name }) => ({ event, priority, name, package: packageOf(name.split('.')[0]!) })),
    );
}

let app: App;
let hostDatabase: TestDatabase;
const subscribers: Array<EventSubscriber<KernelEventMap>> = [];

beforeAll(async () => {
  // Records (and still performs) every subscription the host makes.
  const addSubscriber = EventDispatcher.prototype.addSubscriber;
  const spy = vi.spyOn(EventDispatcher.prototype, 'addSubscriber').mockImplementation(function (
    this: EventDispatcher<KernelEventMap>,
    subscriber: EventSubscriber<KernelEventMap>,
  ) {
    subscribers.push(subscriber);
    return addSubscriber.call(this, subscriber);
  });
  hostDatabase = await createTestDatabase();
  try {
    const env = {
      ...TEST_DEFAULTS,
      API_HOST_CONFIG: '',
      APP_DEBUG: '1',
      RATE_LIMIT: '1000/60s',
      METRICS: '1',
      DATABASE_URL: hostDatabase.connectionString,
    };
    app = await createApp(loadConfig({ ...process.env, ...env }), { logger: nullLogger });
    // The Express/Connect fall-through listener, registered the way users get it.
    nodeAdapter.createMiddleware(app.kernel, { fallThrough: true });
  } finally {
    spy.mockRestore();
  }
});

afterAll(async () => {
  await app?.shutdown();
  await hostDatabase?.stop();
});

describe('docs/events.md, built-in listeners', () => {
  it('lists every listener the host registers, with its priority, name and package, in call order', () => {
    const documented = documentedRows();
    expect(documented.length).toBeGreaterThan(20);
    expect(registeredRows(app.dispatcher)).toEqual(documented);
  });
});

describe('removeSubscriber', () => {
  it('takes away every listener of each built-in subscriber, and nothing else', () => {
    const classes = new Set(documentedRows().map((row) => row.name.split('.')[0]));
    expect(new Set(subscribers.map((subscriber) => subscriber.constructor.name))).toEqual(classes);

    for (const subscriber of subscribers) {
      const dispatcher = new EventDispatcher<KernelEventMap>();
      dispatcher.on('kernel.request', function own() {});
      dispatcher.addSubscriber(subscriber);
      const name = subscriber.constructor.name;
      expect.soft(registeredRows(dispatcher).length, name).toBeGreaterThan(1);
      dispatcher.removeSubscriber(subscriber);
      expect
        .soft(
          registeredRows(dispatcher).map((row) => row.name),
          name,
        )
        .toEqual(['own']);
    }
  });

  it('empties the host dispatcher once each subscriber it registered is removed', () => {
    for (const subscriber of subscribers) app.dispatcher.removeSubscriber(subscriber);
    expect([...app.dispatcher.getAllListeners().keys()]).toEqual([]);
  });
});
