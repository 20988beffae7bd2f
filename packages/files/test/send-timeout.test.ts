import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineController, MemoryLogger } from '@switchboard/http-kernel';
import { startHostServer, type TestServer } from '../../../test/kit/host-kernel.js';
import { largeFile, releasedClients, sendTimeoutLines } from '../../../test/kit/non-reading-clients.js';
import { FileResponse, serveDirectory } from '../src/index.js';

/**
 * The node adapter's send timeout with this package's responses: clients that ask for a file (a
 * `FileResponse`, or one `serveDirectory` serves) and then never read are let go, their
 * connections closed, the file closed, a log line each.
 */
const SEND_TIMEOUT_MS = 500;
const CLIENTS = 8;

const { folder: root, file, remove } = largeFile('files-send-timeout-');
afterAll(remove);

describe('send timeout with file responses', () => {
  const logger = new MemoryLogger();
  let server: TestServer;
  beforeAll(async () => {
    server = await startHostServer(
      {
        'GET /file': defineController([], () => FileResponse.from(file)),
        'GET /static/*path': serveDirectory(root),
      },
      { serve: { logger, sendTimeout: SEND_TIMEOUT_MS } },
    );
  });
  afterAll(() => server.close());

  it.each([
    { what: 'a FileResponse', path: '/file' },
    { what: 'serveDirectory', path: '/static/large.bin' },
  ])(`releases ${CLIENTS} clients that stopped reading $what, with a log line each`, async ({ path }) => {
    const before = sendTimeoutLines(logger, 'HTTP/1');
    await releasedClients(server, CLIENTS, path, file);
    expect(sendTimeoutLines(logger, 'HTTP/1') - before).toBe(CLIENTS);
  });
});
