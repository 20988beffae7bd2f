import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startHostProcess, type HostCommand } from './support/start-host.js';

/**
 * The host as a deployment runs it (and as the Dockerfile does): compiled to JavaScript by its
 * `build` script, then `pnpm start:prod`, which is plain `node dist/main.js`: no TypeScript loader
 * and no `@switchboard/source` condition, so every package resolves to its built `dist/`.
 */
const hostFolder = fileURLToPath(new URL('..', import.meta.url));
const scripts = (JSON.parse(readFileSync(`${hostFolder}/package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;

/** `pnpm start:prod` in its own process group, as a terminal or a container's init starts it. */
const PNPM_START_PROD: HostCommand = { command: 'npx', args: ['-y', 'pnpm@10.34.8', 'start:prod'], cwd: '.', detached: true };

describe('the built host (`build`, then `start:prod`)', () => {
  it('runs node on the compiled entry point, without tsx or the source condition', () => {
    expect(scripts['start:prod']).toBe('exec node dist/main.js');
    expect(scripts['build']).not.toContain('tsx');
  });

  it('builds, serves GET /health from dist/ and stops on SIGTERM with exit 0', async () => {
    await promisify(execFile)('npx', ['-y', 'pnpm@10.34.8', 'run', 'build'], { cwd: hostFolder, timeout: 400_000 });
    // ALLOW_DEMO_USERS: production mode with the bundled demo users is allowed only when asked for.
    const host = await startHostProcess({ APP_DEBUG: '0', API_HOST_CONFIG: '', ALLOW_DEMO_USERS: '1' }, PNPM_START_PROD);
    const group = -host.child.pid!;
    try {
      const url = await host.url;
      expect(host.output()).toContain('debug mode OFF');
      const response = await fetch(`${url}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });

      process.kill(group, 'SIGTERM');
      await host.exited;
      await expect.poll(() => host.log(), { timeout: 20_000 }).toContain('Shutdown finished');
    } finally {
      try {
        process.kill(group, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    }
  }, 600_000);
});
