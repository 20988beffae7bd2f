import { nullLogger } from '@switchboard/http-kernel';
import type { OpenApiDocument } from '@switchboard/openapi';
import { createApp } from './app.js';
import { loadConfig } from './config.js';

/**
 * What `pnpm openapi` (the `switchboard-openapi` command) writes: the document of the host as it
 * is configured, built from an app with an in-memory database that is shut down right after.
 */
export default async function openApiDocument(): Promise<OpenApiDocument> {
  const app = await createApp(loadConfig({ ...process.env, PGLITE_DATA_DIR: 'memory://' }), { logger: nullLogger });
  try {
    return app.openApiDocument();
  } finally {
    await app.shutdown();
  }
}
