import type { Logger } from '@switchboard/http-kernel';
import { FileProfilerStorage, MemoryProfilerStorage, Profiler } from '@switchboard/profiler';
import { defaultCollectors, defaultPanels, type DataCollector, type PanelView } from '@switchboard/profiler/collector';
import type { ProfilerStorage } from '@switchboard/profiler/storage';
import type { RedisProfilerStorage } from '@switchboard/profiler-redis';
import { RateLimitCollector, rateLimitPanel } from '@switchboard/rate-limit/profiler';
import { SecurityCollector, securityPanel } from '@switchboard/security/profiler';
import { ConfigError, type AppConfig } from '../config.js';
import type { Wiring } from './wiring.js';

export const PROFILER_PATH = '/_profiler';
/**
 * Longest wait for queued profiles at shutdown: at most 256 profiles, each built (collected,
 * redacted, serialised) as it is written — a quarter of a second on a quiet machine, seconds when
 * the cores are busy — then small files or Redis writes. Within the host's 10 s shutdown.
 */
export const PROFILE_FLUSH_TIMEOUT_MS = 5_000;

/** The profiler's own panels, then those of the packages the host uses: security and rate limits. */
function hostCollectors(): DataCollector[] {
  return [...defaultCollectors(), new SecurityCollector(), new RateLimitCollector()];
}

/** The views of `hostCollectors()`, for the profiler pages. */
export function hostPanels(): PanelView[] {
  return [...defaultPanels(), securityPanel, rateLimitPanel];
}

function hostProfiler(storage: ProfilerStorage): Profiler {
  return new Profiler({ storage, collectors: hostCollectors() });
}

export interface WiredProfiler extends Wiring {
  readonly profiler: Profiler;
}

/**
 * The debug profiler (docs/profiler.md), in debug mode only: with debug off there are no
 * `x-debug-*` headers and no `/_profiler` routes, and this returns `null`. `AppAssembly` puts it
 * around the app: its logger, its pages at `PROFILER_PATH`, its tracing of the dispatcher.
 *
 * Storage: in memory (500 profiles, 1 hour); files when `PROFILER_DIR` names a directory; Redis when
 * `PROFILER_REDIS_URL` names one, so that every host process behind a balancer finds every profile
 * (setting both is refused). The file and Redis storages queue writes in a bounded queue, and
 * shutdown writes what it still holds (bounded in time), so a token announced in a header is found
 * after a restart, or answers 404 if it was dropped.
 */
export async function wireProfiler(config: AppConfig, logger: Logger): Promise<WiredProfiler | null> {
  if (!config.debug) return null;
  const directory = config.env['PROFILER_DIR'] ?? '';
  const redisUrl = config.env['PROFILER_REDIS_URL'] ?? '';
  if (directory !== '' && redisUrl !== '')
    throw new ConfigError('Set PROFILER_DIR (profiles in files) or PROFILER_REDIS_URL (profiles in Redis), not both.');
  const storageLogger = logger.child({ channel: 'profiler' });
  if (redisUrl !== '') {
    const storage = await redisStorage(redisUrl, storageLogger);
    // Writes what waits, then closes the connection (which would otherwise keep the process alive).
    return { profiler: hostProfiler(storage), onShutdown: () => storage.close(PROFILE_FLUSH_TIMEOUT_MS) };
  }
  if (directory !== '') {
    const storage = new FileProfilerStorage({ directory, logger: storageLogger });
    return {
      profiler: hostProfiler(storage),
      onShutdown: async () => {
        await storage.flush(PROFILE_FLUSH_TIMEOUT_MS);
      },
    };
  }
  return { profiler: hostProfiler(new MemoryProfilerStorage()) };
}

/** The Redis client is loaded only when profiles go to Redis. */
async function redisStorage(url: string, logger: Logger): Promise<RedisProfilerStorage> {
  const { RedisProfilerStorage } = await import('@switchboard/profiler-redis');
  try {
    return new RedisProfilerStorage({ url, logger });
  } catch {
    // The URL itself stays out of the message: it may hold a password.
    throw new ConfigError('PROFILER_REDIS_URL must be a URL such as redis://127.0.0.1:6379.');
  }
}
