import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonResponse } from '@switchboard/http-kernel';
import { createFetchHandler } from '@switchboard/node-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTypedController, mapPayload } from '../src/index.js';
import { hostKernel } from '../../../test/kit/host-kernel.js';
import { serveKernel, type ServedKernel } from '../../../test/kit/index.js';
import { rawExchange, statusOfRaw } from '../../../test/kit/raw-http.js';
import {
  BOUNDARY,
  filesUnder,
  multipartBody,
  partHead,
  startUploadServer,
  streamLargeUpload,
  type Part,
} from './support/multipart-client.js';
import { payloadWiring } from './support/payload-wiring.js';

const MiB = 1024 * 1024;
const MEMORY_FILE_BYTES = 16 * 1024;
const Upload = z.object({
  title: z.string().min(1),
  count: z.coerce.number().int(),
  doc: z.file(),
  tags: z.array(z.string()).optional(),
});
const uploadLimits = { maxBodyBytes: 64 * MiB, maxFileBytes: MiB, maxFiles: 2, maxFields: 4, maxFieldBytes: 1024 };

let uploads: string;
let served: ServedKernel;
let fetchHandler: (request: Request) => Promise<Response>;

beforeAll(async () => {
  uploads = mkdtempSync(join(tmpdir(), 'switchboard-multipart-test-'));
  const { kernel } = hostKernel(
    {
      'POST /upload': defineTypedController([mapPayload('form', { from: 'multipart', schema: Upload, ...uploadLimits })], async (form) => {
        const bytes = new Uint8Array(await form.doc.arrayBuffer());
        return new JsonResponse({
          title: form.title,
          count: form.count,
          tags: form.tags ?? null,
          doc: {
            name: form.doc.name,
            type: form.doc.type,
            size: form.doc.size,
            read: bytes.byteLength,
            head: new TextDecoder().decode(bytes.subarray(0, 5)),
          },
          // The controller runs while the spilled file exists: it is removed at kernel.terminate.
          filesDuringController: filesUnder(uploads).length,
        });
      }),
      'POST /small': defineTypedController(
        [mapPayload('form', { from: 'multipart', schema: z.object({ note: z.string() }), maxBodyBytes: 8 * 1024 })],
        (form) => new JsonResponse(form),
      ),
    },
    payloadWiring({ multipart: { temporaryDirectory: uploads, memoryFileBytes: MEMORY_FILE_BYTES } }),
  );
  served = await serveKernel(kernel, { bodyLimit: 64 * MiB });
  fetchHandler = createFetchHandler(kernel, { bodyLimit: 64 * MiB });
});
afterAll(async () => {
  await served?.close();
  rmSync(uploads, { recursive: true, force: true });
});

const multipartHeaders = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const fields = (entries: Record<string, string>): Part[] => Object.entries(entries).map(([name, value]) => ({ name, value }));
const doc = (size: number, name = 'notes.txt'): Part => ({
  name: 'doc',
  filename: name,
  type: 'text/plain',
  value: Buffer.alloc(size, 'a'),
});

/** A bounded wait for the server's cleanup, which runs after the answer (kernel.terminate). */
async function untilNoUploadFiles(): Promise<void> {
  await expect.poll(() => filesUnder(uploads), { timeout: 5_000, interval: 20 }).toEqual([]);
}

/** The same request through the node adapter (real server) or the fetch handler (WHATWG Request). */
type Body = NonNullable<RequestInit['body']>;
type Send = (path: string, body: Body, headers?: Record<string, string>) => Promise<Response>;
const transports: Array<[string, () => Send]> = [
  [
    'node adapter',
    () =>
      (path, body, headers = {}) =>
        fetch(served.origin + path, {
          method: 'POST',
          body,
          headers: { accept: 'application/json', ...headers },
          duplex: 'half',
        } as RequestInit),
  ],
  [
    'fetch handler',
    () =>
      (path, body, headers = {}) =>
        fetchHandler(
          new Request(`http://localhost${path}`, {
            method: 'POST',
            body,
            headers: { accept: 'application/json', ...headers },
            duplex: 'half',
          } as RequestInit),
        ),
  ],
];

describe.each(transports)('multipart payloads through the %s', (_name, transport) => {
  const send = (path: string, body: Body, headers?: Record<string, string>): Promise<Response> => transport()(path, body, headers);

  async function problem(response: Response, status: number): Promise<Record<string, unknown>> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const document = (await response.json()) as Record<string, unknown>;
    expect(document['status']).toBe(status);
    return document;
  }

  it('types and validates fields and files; a large file is spilled, then removed when the request ends', async () => {
    const form = new FormData();
    form.set('title', 'Report');
    form.set('count', '3');
    form.append('tags', 'a');
    form.append('tags', 'b');
    form.set('doc', new File([Buffer.alloc(200 * 1024, 'q')], 'report.csv', { type: 'text/csv' }));
    const response = await send('/upload', form);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      title: 'Report',
      count: 3,
      tags: ['a', 'b'],
      doc: { name: 'report.csv', type: 'text/csv', size: 200 * 1024, read: 200 * 1024, head: 'qqqqq' },
      filesDuringController: 1,
    });
    await untilNoUploadFiles();
  });

  it('keeps a small file in memory', async () => {
    const response = await send('/upload', multipartBody([...fields({ title: 'T', count: '1' }), doc(100)]), multipartHeaders);
    expect(await response.json()).toMatchObject({ doc: { name: 'notes.txt', size: 100, read: 100 }, filesDuringController: 0 });
  });

  it('answers 422 with violations for fields and files the schema refuses', async () => {
    const response = await send('/upload', multipartBody(fields({ title: '', count: 'many' })), multipartHeaders);
    const document = await problem(response, 422);
    expect((document['violations'] as Array<{ path: string }>).map((violation) => violation.path)).toEqual(['/title', '/count', '/doc']);
  });

  it.each([
    // Each body would otherwise reach the schema and get a 422 (a list of files, unknown fields).
    ['a file over maxFileBytes', [...fields({ title: 'T', count: '1' }), doc(MiB + 1)]],
    ['more files than maxFiles', [doc(10, 'a.txt'), doc(10, 'b.txt'), doc(10, 'c.txt')]],
    ['more fields than maxFields', fields({ a: '1', b: '2', c: '3', d: '4', e: '5' })],
    ['a field over maxFieldBytes', fields({ title: 'x'.repeat(1025) })],
  ])('answers 413 for %s, and leaves no file behind', async (_case, parts) => {
    await problem(await send('/upload', multipartBody(parts), multipartHeaders), 413);
    await untilNoUploadFiles();
  });

  it('answers 413 for a body over its total limit, announced or counted while it streams', async () => {
    const body = multipartBody([{ name: 'note', value: 'n'.repeat(9 * 1024) }]);
    await problem(await send('/small', body, multipartHeaders), 413);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body.subarray(0, 4096));
        controller.enqueue(body.subarray(4096));
        controller.close();
      },
    });
    await problem(await send('/small', streamed, multipartHeaders), 413);
  });

  it('answers 400 for a body without a boundary, and for a truncated one', async () => {
    const body = multipartBody(fields({ note: 'n' }));
    await problem(await send('/small', body, { 'content-type': 'multipart/form-data' }), 400);
    const truncated = multipartBody(fields({ note: 'n' }), { closed: false });
    await problem(await send('/small', truncated, multipartHeaders), 400);
    await problem(await send('/small', Buffer.from('not a multipart body at all'), multipartHeaders), 400);
  });

  it('answers 415 for another media type', async () => {
    await problem(await send('/small', '{"note":"n"}', { 'content-type': 'application/json' }), 415);
  });
});

describe('multipart payloads over raw sockets (node adapter)', () => {
  it('refuses a 50 MB part against a 1 MiB limit while it streams, without buffering it', async () => {
    // The server runs in a process of its own, so that its RSS is its own (the test runner's holds other files' work).
    const server = await startUploadServer(uploads);
    try {
      const fileBytes = 50 * MiB;
      const before = (await (await fetch(`${server.origin}/rss`)).json()) as { rss: number };
      const upload = await streamLargeUpload(server.port, '/upload', fileBytes);
      const after = (await (await fetch(`${server.origin}/rss`)).json()) as { peak: number };
      expect(statusOfRaw(upload.received)).toBe(413);
      // The answer came while the client was still sending, and the server stopped taking the rest.
      expect(upload.sentBeforeAnswer).toBeGreaterThan(0);
      expect(upload.sentBeforeAnswer).toBeLessThan(fileBytes);
      expect(upload.received).toMatch(/\r\nconnection: close\r\n/i);
      const growth = after.peak - before.rss;
      console.info(
        `50 MB upload refused: server RSS ${(before.rss / MiB).toFixed(1)} MiB before, peak growth ${(growth / MiB).toFixed(1)} MiB; ${(upload.sentBeforeAnswer / MiB).toFixed(1)} MiB written by the client before the 413`,
      );
      expect(growth).toBeLessThan(10 * MiB);
      await untilNoUploadFiles();
    } finally {
      await server.stop();
    }
  });

  it('removes the temporary files of a client that stops mid-upload', async () => {
    const head = `POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${10 * MiB}\r\n\r\n`;
    const socket = net.connect({ port: served.port, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(head + partHead({ name: 'doc', filename: 'partial.bin' }));
    socket.write(Buffer.alloc(4 * MEMORY_FILE_BYTES, 'p'));
    // Past the memory threshold: the part is on disk now.
    await expect.poll(() => filesUnder(uploads).length, { timeout: 5_000, interval: 20 }).toBe(1);
    socket.destroy();
    await untilNoUploadFiles();
  });

  it.each([
    ['no boundary', 'multipart/form-data', multipartBody([{ name: 'note', value: 'n' }])],
    [
      'a body cut before its closing delimiter',
      `multipart/form-data; boundary=${BOUNDARY}`,
      multipartBody([{ name: 'note', value: 'n' }], { closed: false }),
    ],
    ['a boundary the body never uses', 'multipart/form-data; boundary=other', multipartBody([{ name: 'note', value: 'n' }])],
  ])('answers 400 for %s', async (_case, contentType, body) => {
    const raw = await rawExchange(served.port, [
      `POST /small HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nConnection: close\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
      body.toString('latin1'),
    ]);
    expect(statusOfRaw(raw)).toBe(400);
    expect(raw).toMatch(/content-type: application\/problem\+json/i);
  });
});

describe('multipart payloads through the fetch handler, streamed', () => {
  /** A body of one file part of `fileBytes` bytes, generated as it is pulled. */
  function generatedUpload(fileBytes: number, { failAfter = Number.POSITIVE_INFINITY } = {}) {
    const state = { pulled: 0, cancelled: false };
    const chunk = new Uint8Array(64 * 1024).fill(0x7a);
    let headSent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!headSent) {
          headSent = true;
          return controller.enqueue(Buffer.from(partHead({ name: 'doc', filename: 'big.bin' })));
        }
        if (state.pulled >= failAfter) return controller.error(new Error('client gone'));
        if (state.pulled >= fileBytes) {
          controller.enqueue(Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
          return controller.close();
        }
        const part = chunk.subarray(0, Math.min(chunk.length, fileBytes - state.pulled));
        state.pulled += part.length;
        controller.enqueue(part.slice());
      },
      cancel() {
        state.cancelled = true;
      },
    });
    const request = new Request('http://localhost/upload', {
      method: 'POST',
      body: stream,
      headers: { accept: 'application/json', 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      duplex: 'half',
    } as RequestInit);
    return { request, state };
  }

  it('refuses a 50 MB part against a 1 MiB limit and cancels the body instead of reading it', async () => {
    const { request, state } = generatedUpload(50 * MiB);
    const response = await fetchHandler(request);
    expect(response.status).toBe(413);
    // Not read past the limit (plus what the stream had queued): nothing of the rest was ever held.
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(2 * MiB);
    await untilNoUploadFiles();
  });

  it('removes the temporary files when the body fails mid-upload (client gone)', async () => {
    const { request } = generatedUpload(10 * MiB, { failAfter: 4 * MEMORY_FILE_BYTES });
    const response = await fetchHandler(request);
    expect(response.status).toBe(400);
    await untilNoUploadFiles();
  });
});
