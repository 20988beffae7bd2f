/**
 * `pnpm debug:router [filter] [--json] [--source]`: the routes of the host as `createApp` wires
 * them, in matching order, or with `--source` the JavaScript the matcher generated for them. The
 * app is built as for serving (configuration file and environment), with the embedded database
 * in memory unless `DATABASE_URL` or `PGLITE_DATA_DIR` say otherwise, then shut down.
 */
import { nullLogger } from '@switchboard/http-kernel';
import { DebugRouterUsageError, debugRouterCommand } from '@switchboard/router';
import { type App, createApp } from './app.js';
import { loadConfig } from './config.js';

let app: App | undefined;
try {
  await debugRouterCommand(async () => {
    app = await createApp(loadConfig({ PGLITE_DATA_DIR: 'memory://', ...process.env }), { logger: nullLogger });
    return app.router;
  }, process.argv.slice(2));
} catch (error) {
  if (!(error instanceof DebugRouterUsageError)) throw error;
  process.stderr.write(error.message);
  process.exitCode = 2;
} finally {
  await app?.shutdown();
}
