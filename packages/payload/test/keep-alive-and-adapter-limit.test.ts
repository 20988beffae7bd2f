import { Agent, request as httpRequest } from 'node:http';
import { defineController, JsonResponse } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mapPayload } from '../src/index.js';
import { hostKernel } from '../../../test/kit/host-kernel.js';
import { serveKernel } from '../../../test/kit/index.js';
import { payloadWiring } from './support/payload-wiring.js';

const Note = z.object({ text: z.string() });
const ADAPTER_LIMIT = 512 * 1024;
let origin: string;
let close: () => Promise<void>;
// One socket for every request: the second request must travel on the connection the first used.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  const { kernel } = hostKernel(
    {
      'POST /small': defineController(
        [mapPayload('note', { from: 'json', schema: Note, maxBodyBytes: 64 })],
        (note: { text: string }) => new JsonResponse(note),
      ),
      'POST /large': defineController(
        [mapPayload('note', { from: 'json', schema: Note, maxBodyBytes: 1 << 20 })],
        (note: { text: string }) => new JsonResponse({ length: note.text.length }),
      ),
    },
    payloadWiring(),
  );
  ({ origin, close } = await serveKernel(kernel, { bodyLimit: ADAPTER_LIMIT }));
});
afterAll(async () => {
  agent.destroy();
  await close();
});

interface Answer {
  status: number;
  body: string;
  socket: unknown;
}

/** POSTs `parts` as a chunked body (no Content-Length) on the shared keep-alive agent. */
function postChunked(path: string, parts: string[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${origin}${path}`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json' } },
      (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body, socket: outgoing.socket }));
      },
    );
    outgoing.on('error', reject);
    for (const part of parts) outgoing.write(part);
    outgoing.end();
  });
}

describe('body limits with the node adapter', () => {
  it('answers 413 for a chunked body over the payload limit and keeps the connection usable', async () => {
    const refused = await postChunked('/small', ['{"text":"', ...Array.from({ length: 16 }, () => 'x'.repeat(16 * 1024)), '"}']);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 413 });
    const next = await postChunked('/small', ['{"text":"hi"}']);
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body)).toEqual({ text: 'hi' });
    expect(next.socket).toBe(refused.socket);
  });

  it('answers the adapter’s own 413 when its limit is the smaller one', async () => {
    const refused = await postChunked('/large', ['{"text":"', 'x'.repeat(ADAPTER_LIMIT * 2), '"}']);
    expect(refused.status).toBe(413);
    const accepted = await postChunked('/large', ['{"text":"', 'x'.repeat(1000), '"}']);
    expect(accepted.status).toBe(200);
    expect(JSON.parse(accepted.body)).toEqual({ length: 1000 });
  });
});
