/**
 * With `PROFILER_DIR` set, every token the host announced in a response header is on disk after a
 * real SIGTERM of the host process: shutdown writes what the storage still had queued.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { FileProfilerStorage } from '@switchboard/profiler';
import { startHostProcess } from './support/start-host.js';

const REQUESTS = 120;
const CONCURRENCY = 20;

const directory = mkdtempSync(join(tmpdir(), 'profiler-shutdown-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('finds every announced profile after SIGTERM', async () => {
  const host = await startHostProcess({ APP_DEBUG: '1', API_HOST_CONFIG: '', PROFILER_DIR: directory });
  try {
    const base = await host.url;
    const announced: string[] = [];
    let next = 0;
    const client = async (): Promise<void> => {
      while (next < REQUESTS) {
        const response = await fetch(`${base}/scan-${next++}.php`);
        await response.arrayBuffer();
        expect(response.status).toBe(404);
        announced.push(response.headers.get('x-debug-token')!, response.headers.get('x-previous-debug-token')!);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    // Right after the last answer, while the last profiles are still being saved.
    host.child.kill('SIGTERM');
    expect(await host.exited).toBe(0);

    const stored = new FileProfilerStorage({ directory });
    expect(announced).toHaveLength(2 * REQUESTS);
    expect(announced.filter((token) => !stored.has(token))).toEqual([]);
    for (const token of [announced[0]!, announced.at(-1)!]) expect((await stored.read(token))?.token).toBe(token);
  } finally {
    host.child.kill('SIGKILL');
  }
});
