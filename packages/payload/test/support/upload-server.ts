/**
 * A server of its own process for the memory test: `POST /upload` takes one file of at most 1 MiB
 * (the adapter and the body allow 64 MiB, so the part limit is what refuses a larger one), and
 * `GET /rss` answers this process's RSS now and its peak since the previous call. It prints its
 * port on stdout. Run: node --conditions=@switchboard/source --import tsx upload-server.ts <tmpdir>
 */
import { JsonResponse } from '@switchboard/http-kernel';
import { z } from 'zod';
import { hostKernel } from '../../../../test/kit/host-kernel.js';
import { serveKernel } from '../../../../test/kit/index.js';
import { defineTypedController, mapPayload } from '../../src/index.js';
import { payloadWiring } from './payload-wiring.js';

const MiB = 1024 * 1024;
let peak = process.memoryUsage.rss();
// RSS seldom falls back at once, so a sample every few ms sees any growth the upload causes.
setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5).unref();

const { kernel } = hostKernel(
  {
    'POST /upload': defineTypedController(
      [mapPayload('form', { from: 'multipart', schema: z.object({ doc: z.file() }), maxBodyBytes: 64 * MiB, maxFileBytes: MiB })],
      (form) => new JsonResponse({ size: form.doc.size }),
    ),
    'GET /rss': defineTypedController([], () => {
      const rss = process.memoryUsage.rss();
      const answer = { rss, peak: Math.max(peak, rss) };
      peak = rss;
      return new JsonResponse(answer);
    }),
  },
  payloadWiring({ multipart: { temporaryDirectory: process.argv[2]! } }),
);
const served = await serveKernel(kernel, { bodyLimit: 64 * MiB });
process.stdout.write(`${served.port}\n`);
process.on('SIGTERM', () => void served.close().then(() => process.exit(0)));
