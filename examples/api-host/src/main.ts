/**
 * Starts the example host: `npx -y pnpm@10.34.8 start` from the repository root.
 * Configuration: see ../README.md (env vars and config/api-host.json). With `WORKERS=N` (N > 1)
 * this process becomes a cluster primary and each of its N workers runs this file too.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { ClusterMetricsPrimary } from '@switchboard/metrics';
import { DEFAULT_BODY_LIMIT, serve } from '@switchboard/node-adapter';
import { createApp } from './app.js';
import { ClusterPrimary, reportListening } from './cluster/cluster-primary.js';
import { workersFromEnv } from './cluster/workers-setting.js';
import { ConfigError, loadConfig, type AppConfig } from './config.js';
import { createHostLogger } from './operations/host-logger.js';
import { warnIfDebugIsExposed } from './exposed-debug-warning.js';
import { startupLine } from './startup-line.js';
import { itemImportBodyBytes } from './wiring/item-import.js';
import { isMetricsOn } from './wiring/metrics.js';
import { PROFILER_PATH } from './wiring/profiler.js';
import { securityConfigFromEnv } from './security/security-config.js';
import { refuseDemoUsers } from './security/users.js';

/** What README.md promises for SIGTERM and Ctrl-C: requests get 7 s, then a 503; all done within 10 s. */
const SHUTDOWN_TIMEOUT_MS = 10_000;
const SHUTDOWN_GRACE_PERIOD_MS = 7_000;

try {
  const config = loadConfig(process.env);
  const workers = workersFromEnv(process.env, config.debug);
  if (workers > 1 && cluster.isPrimary) process.exit(await runPrimary(config, workers));
  await runHost(config);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`Configuration error: ${error.message}\n`);
  process.exit(78); // EX_CONFIG
}

/** One process serving the port: the whole host, or one worker of the cluster. */
async function runHost(config: AppConfig): Promise<void> {
  const app = await createApp(config);
  if (!cluster.isWorker) warnIfDebugIsExposed(config, app.logger);
  const running = await serve(app.kernel, {
    port: config.port,
    host: config.host,
    ...(config.tls === null
      ? {}
      : {
          tls: {
            key: readFileSync(config.tls.keyFile),
            cert: readFileSync(config.tls.certFile),
            ...(config.tls.passphrase === undefined ? {} : { passphrase: config.tls.passphrase }),
          },
        }),
    ...(config.baseUrl === null ? {} : { baseUrl: config.baseUrl }),
    // The default 1 MiB, or more when the item import takes larger files.
    bodyLimit: Math.max(DEFAULT_BODY_LIMIT, itemImportBodyBytes(config.env)),
    trustedProxies: config.trustedProxies,
    trustedHosts: config.trustedHosts,
    logger: app.logger,
    shutdownTimeout: SHUTDOWN_TIMEOUT_MS,
    shutdownGracePeriod: SHUTDOWN_GRACE_PERIOD_MS,
    answerHeaders: app.answerHeaders,
    onShutdownStart: () => app.readiness.startDraining(),
    onShutdown: () => app.shutdown(),
  });
  if (cluster.isWorker) reportListening(running.url);
  else process.stdout.write(`${startupLine(app, running.url)}\n`);
}

/** The cluster primary: serves nothing itself; forks, replaces and stops the workers. Resolves with the exit code. */
async function runPrimary(config: AppConfig, workers: number): Promise<number> {
  const logger = createHostLogger(config.env, config.debug ? 'DEBUG' : 'INFO');
  warnIfDebugIsExposed(config, logger);
  // Created here once (when the default key files are missing), so that every worker loads the same pair.
  const security = securityConfigFromEnv(config.env, logger);
  // Refused here too, so that a cluster stops at once rather than each worker failing in turn.
  refuseDemoUsers(security.usersFile, config.debug, config.env, logger);
  if (config.debug && (config.env['PROFILER_REDIS_URL']?.trim() ?? '') === '') {
    logger.warn(
      { workers },
      `Cluster: debug mode with profiles in memory: each of the ${workers} workers keeps its own, so a profiler link or token ` +
        'resolves only when the worker that issued it answers. Set PROFILER_REDIS_URL to share them.',
    );
  }
  // Any worker's GET /metrics answers for the whole host: the primary totals the workers' counts.
  if (isMetricsOn(config.env)) new ClusterMetricsPrimary().attach();
  const primary = new ClusterPrimary({
    workers,
    logger: logger.child({ channel: 'cluster' }),
    workerShutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
    onListening: (url) => {
      const line = startupLine({ config, debug: config.debug, profilerPath: config.debug ? PROFILER_PATH : null }, url);
      process.stdout.write(`${line} (${workers} workers)\n`);
    },
  });
  return primary.run();
}
