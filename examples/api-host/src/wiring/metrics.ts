import cluster from 'node:cluster';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AccessDeniedHttpError, defineController, type Request, type Response } from '@switchboard/http-kernel';
import { ClusterMetricsWorker, MetricsListener, prometheusController, ServerMetrics } from '@switchboard/metrics';
import { REQUEST_SHED_CHANNEL } from '@switchboard/operations';
import { PROFILE_DROPPED_CHANNEL } from '@switchboard/profiler/storage';
import { RATE_LIMIT_REFUSED_CHANNEL, type RateLimitRefusedMessage } from '@switchboard/rate-limit';
import { Route } from '@switchboard/router';
import { LOGIN_THROTTLED_CHANNEL, type LoginThrottledMessage } from '@switchboard/security';
import { isOn } from './observability.js';
import type { HostContext, Wiring } from './wiring.js';

export const METRICS_PATH = '/metrics';

export interface WiredMetrics extends Wiring {
  /** This process's metrics, or null with `METRICS` off. */
  readonly metrics: ServerMetrics | null;
}

/**
 * With `METRICS=1`: every main request recorded (`MetricsListener`, kernel.request 16384 and
 * kernel.terminate 0) and `GET /metrics` in Prometheus' text format, exempt from load shedding and
 * from the per-client limiter. Who may read it: with `METRICS_TOKEN` set, only a request bearing
 * it (`Authorization: Bearer <token>`), from anywhere, loopback included; without it, only
 * loopback clients (after `TRUSTED_PROXIES`). Anyone else gets 403. In a cluster worker
 * (`WORKERS=N`) the route shows the whole host: the primary totals every worker's counts
 * (`ClusterMetricsPrimary`, started by main.ts), whichever worker the scrape reached.
 */
export function wireMetrics(host: Pick<HostContext, 'env'>): WiredMetrics {
  if (!isMetricsOn(host.env)) return { metrics: null };
  const metrics = new ServerMetrics()
    .countChannel<RateLimitRefusedMessage>({
      channel: RATE_LIMIT_REFUSED_CHANNEL,
      name: 'switchboard_rate_limit_refusals',
      help: 'Requests refused by a rate limit (429), per limiter.',
      labels: (message) => ({ limiter: message.limiter }),
    })
    .countChannel<LoginThrottledMessage>({
      channel: LOGIN_THROTTLED_CHANNEL,
      name: 'switchboard_login_throttled',
      help: 'Login attempts refused by login throttling, per limit.',
      labels: (message) => ({ limit: message.limit }),
    })
    .countChannel({ channel: REQUEST_SHED_CHANNEL, name: 'switchboard_requests_shed', help: 'Requests shed under pressure (503).' })
    .countChannel({
      channel: PROFILE_DROPPED_CHANNEL,
      name: 'switchboard_profiles_dropped',
      help: 'Profiles the profiler storage dropped before writing them.',
    });
  const token = host.env['METRICS_TOKEN']?.trim() ?? '';
  const worker = cluster.isWorker ? new ClusterMetricsWorker(metrics).attach() : null;
  const exposition = prometheusController(worker === null ? () => metrics.snapshot() : () => worker.collect());
  const guarded = defineController(['request'], (request: Request): Promise<Response> => {
    if (!(token === '' ? isLoopback(request.clientIp) : bearsToken(request, token))) {
      throw new AccessDeniedHttpError(token === '' ? 'Metrics are served to loopback clients only.' : 'A valid metrics token is required.');
    }
    return exposition();
  });
  return {
    metrics,
    subscribers: [new MetricsListener(metrics)],
    routes: [new Route('metrics', METRICS_PATH, { methods: ['GET'], controller: guarded, defaults: { _load_shedding: 'exempt' } })],
    // Only its secret: the token must never show in a profile.
    ...(token === '' ? {} : { secrets: [token] }),
    onShutdown: () => {
      worker?.detach();
      metrics.close();
    },
  };
}

/** `METRICS` on (`1`, `true`, `on`, `yes`). */
export function isMetricsOn(env: NodeJS.ProcessEnv): boolean {
  return isOn(env['METRICS']);
}

/** The bearer token compared in constant time (digests of equal length, whatever was sent). */
function bearsToken(request: Request, token: string): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (match === null) return false;
  return timingSafeEqual(digest(match[1]!), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}
