/**
 * Starts the example host: `npx -y pnpm@10.34.8 start` from the repository root.
 * Configuration: see ../README.md (env vars and config/api-host.json).
 */
import { readFileSync } from 'node:fs';
import { serve } from '@switchboard/node-adapter';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { startupLine } from './startup-line.js';

try {
  const config = loadConfig(process.env);
  const app = await createApp(config);
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
    trustedProxies: config.trustedProxies,
    logger: app.logger,
    // What README.md promises for SIGTERM and Ctrl-C: requests get 7 s, then a 503; all done within 10 s.
    shutdownTimeout: 10_000,
    shutdownGracePeriod: 7_000,
    onShutdown: () => app.shutdown(),
  });
  process.stdout.write(`${startupLine(app, running.url)}\n`);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`Configuration error: ${error.message}\n`);
  process.exit(78); // EX_CONFIG
}
