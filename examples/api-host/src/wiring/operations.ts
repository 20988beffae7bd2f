import {
  AccessLogListener,
  PressureListener,
  PressureMonitor,
  Readiness,
  RequestIdListener,
  type DependencyCheck,
} from '@switchboard/operations';
import { defineResponses } from '@switchboard/openapi';
import { Route } from '@switchboard/router';
import { z } from 'zod';
import { ConfigError } from '../config.js';
import type { Database } from '../database/open-database.js';
import type { HostContext, Wiring } from './wiring.js';

export interface OperationsSettings {
  /** Env `ACCESS_LOG_SAMPLE_2XX`: the share of 2xx answers that get an access line, 0 to 1. Default 1. */
  readonly successSampleRate: number;
  /** Env `PRESSURE_MAX_EVENT_LOOP_DELAY_MS`: longest event-loop delay (per 1 s sample) past which requests are shed. Default none. */
  readonly maxEventLoopDelayMs: number | undefined;
  /** Env `PRESSURE_MAX_RSS_MB`: resident memory past which requests are shed. Default none. */
  readonly maxRssBytes: number | undefined;
}

export interface WiredOperations extends Wiring {
  /** `GET /ready`'s state: `main.ts` tells it when shutdown starts (`serve({ onShutdownStart })`). */
  readonly readiness: Readiness;
}

export const READY_PATH = '/ready';

const READY_RESPONSES = defineResponses({
  200: z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.literal('ok')) }),
  503: z.object({ status: z.enum(['draining', 'unavailable']), checks: z.record(z.string(), z.enum(['ok', 'failed', 'timeout'])) }),
});

/**
 * Request ids and `request.logger` (kernel.request 8192, kernel.response −2048), the access line
 * (kernel.request 8192, kernel.terminate 0), load shedding under pressure (kernel.request 31;
 * `/health`, `/ready` and the profiler exempt), and `GET /ready`: 503 once shutdown starts or while
 * the database does not answer.
 */
export function wireOperations(
  host: Pick<HostContext, 'env' | 'logger'>,
  database: Database,
  /** Further dependencies `GET /ready` reports (the identity providers' key sets). */
  checks: Readonly<Record<string, DependencyCheck>> = {},
): WiredOperations {
  const settings = operationsSettingsFromEnv(host.env);
  const monitor = new PressureMonitor({
    ...(settings.maxEventLoopDelayMs === undefined ? {} : { maxEventLoopDelayMs: settings.maxEventLoopDelayMs }),
    ...(settings.maxRssBytes === undefined ? {} : { maxRssBytes: settings.maxRssBytes }),
    logger: host.logger,
  });
  // Off until a threshold is set: what overload means depends on the machine and the service.
  if (settings.maxEventLoopDelayMs !== undefined || settings.maxRssBytes !== undefined) monitor.start();
  const readiness = new Readiness({
    checks: {
      database: async () => {
        await database.connection.query('SELECT 1');
      },
      ...checks,
    },
  });
  return {
    readiness,
    subscribers: [
      new RequestIdListener({ logger: host.logger }),
      new AccessLogListener({ logger: host.logger, successSampleRate: settings.successSampleRate }),
      new PressureListener({ monitor }),
    ],
    routes: [
      new Route('ready', READY_PATH, {
        methods: ['GET'],
        controller: readiness.controller,
        defaults: { _load_shedding: 'exempt', _responses: READY_RESPONSES },
      }),
    ],
    onShutdown: () => monitor.stop(),
  };
}

export function operationsSettingsFromEnv(env: NodeJS.ProcessEnv): OperationsSettings {
  const rss = number(env, 'PRESSURE_MAX_RSS_MB', undefined, 1);
  return {
    successSampleRate: number(env, 'ACCESS_LOG_SAMPLE_2XX', 1, 0, 1)!,
    maxEventLoopDelayMs: number(env, 'PRESSURE_MAX_EVENT_LOOP_DELAY_MS', undefined, 1),
    maxRssBytes: rss === undefined ? undefined : rss * 1024 * 1024,
  };
}

function number(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number | undefined,
  min: number,
  max = Number.POSITIVE_INFINITY,
): number | undefined {
  const text = env[name]?.trim() ?? '';
  if (text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a number from ${min}${Number.isFinite(max) ? ` to ${max}` : ''}, got "${text}".`);
  }
  return value;
}
