import { request as httpRequest } from 'node:http';
import { brotliCompressSync, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { defineController, JsonResponse } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mapPayload } from '../src/index.js';
import { hostKernel } from '../../../test/kit/host-kernel.js';
import { serveKernel } from '../../../test/kit/index.js';
import { payloadWiring } from './support/payload-wiring.js';

const Note = z.object({ text: z.string() });
const LIMIT = 1 << 20;
let origin: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const { kernel } = hostKernel(
    {
      'POST /notes': defineController(
        [mapPayload('note', { from: 'json', schema: Note, maxBodyBytes: LIMIT })],
        (note: { text: string }) => new JsonResponse({ length: note.text.length, start: note.text.slice(0, 5) }),
      ),
    },
    payloadWiring(),
  );
  ({ origin, close } = await serveKernel(kernel));
});
afterAll(() => close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function post(body: Uint8Array, contentEncoding?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${origin}/notes`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': String(body.byteLength),
          ...(contentEncoding === undefined ? {} : { 'content-encoding': contentEncoding }),
        },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const note = (text: string) => Buffer.from(JSON.stringify({ text }));

/** `{"text":"aaa…"}` of `size` letters, gzipped a MiB at a time: the whole text is never in memory. */
async function gzippedNote(size: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => parts.push(chunk));
  const ended = new Promise((resolve) => gzip.on('end', resolve));
  const mebibyte = Buffer.alloc(1 << 20, 0x61);
  gzip.write('{"text":"');
  for (let written = 0; written < size; written += mebibyte.byteLength) {
    if (!gzip.write(mebibyte.subarray(0, Math.min(mebibyte.byteLength, size - written))))
      await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end('"}');
  await ended;
  return Buffer.concat(parts);
}

describe('request Content-Encoding', () => {
  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['GZIP', gzipSync],
  ])('decodes a %s body before reading its JSON', async (coding, encode) => {
    const answer = await post(encode(note('hello, compressed world')), coding);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ length: 23, start: 'hello' });
  });

  it('undoes several codings, last applied first, and ignores identity', async () => {
    const twice = brotliCompressSync(gzipSync(note('layered')));
    expect(JSON.parse((await post(twice, 'gzip, br')).body)).toEqual({ length: 7, start: 'layer' });
    expect((await post(note('plain'), 'identity')).status).toBe(200);
  });

  it.each(['compress', 'zstd', 'gzip, gzip, gzip', 'gzip;q=1'])(
    'refuses Content-Encoding: %s with 415 and the codings it reads in Accept-Encoding',
    async (coding) => {
      const answer = await post(gzipSync(note('x')), coding);
      expect(answer.status).toBe(415);
      expect(answer.headers['accept-encoding']).toBe('gzip, deflate, br');
      expect(JSON.parse(answer.body)).toMatchObject({ status: 415 });
    },
  );

  it('answers 400 for a body that is not what its coding says', async () => {
    const answer = await post(note('not gzip at all'), 'gzip');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400 });
  });

  it('applies the limit to the decoded size: a 50 MiB body is allowed in when it is small compressed, and refused', async () => {
    const bomb = await gzippedNote(50 << 20);
    expect(bomb.byteLength).toBeLessThan(60 << 10);
    const peakBefore = process.resourceUsage().maxRSS;
    const answer = await post(bomb, 'gzip');
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413 });
    // Decoding stopped at the limit: the server (this process) never held the 50 MiB (maxRSS is in KiB).
    expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(20 << 10);
    // Under the limit once decoded: read whole.
    const fits = await post(gzipSync(note('b'.repeat(LIMIT - 100))), 'gzip');
    expect(fits.status).toBe(200);
    expect(JSON.parse(fits.body)).toMatchObject({ length: LIMIT - 100 });
  });
});
