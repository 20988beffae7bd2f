import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineController, Response } from '@switchboard/http-kernel';
import { FileResponse, RangeListener } from '../../src/index.js';
import { hostKernel, type TestKernel } from '../../../../test/kit/host-kernel.js';

/** 26 letters × 40: ranges are easy to read in assertions. */
export const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.repeat(40);
/** Large enough that a client leaving after the first chunk leaves the rest unread. */
export const BIG_SIZE = 8 * 1024 * 1024;
export const NOTES_MODIFIED = Date.UTC(2026, 0, 2, 3, 4, 5);

export interface FileFixture {
  readonly app: TestKernel;
  /** Handles given to `/handle` and `/big-handle` responses, to check each was closed. */
  readonly handles: FileHandle[];
  readonly dir: string;
  remove(): void;
}

/**
 * A kernel with the Range listener and one route per kind of body: a path, a download, a
 * FileHandle, a File, a buffered text, and a stream of unknown length. Files live in the test
 * run's scratch folder; `remove()` deletes them.
 */
export function fileFixture(): FileFixture {
  const dir = mkdtempSync(join(tmpdir(), 'files-'));
  const letters = join(dir, 'letters.txt');
  const big = join(dir, 'big.bin');
  writeFileSync(letters, LETTERS);
  writeFileSync(big, Buffer.alloc(BIG_SIZE, 0x61));
  const handles: FileHandle[] = [];
  const given = async (path: string): Promise<FileHandle> => {
    const handle = await open(path, 'r');
    handles.push(handle);
    return handle;
  };
  const app = hostKernel(
    {
      'GET /file': defineController([], () => FileResponse.from(letters)),
      'GET /download': defineController([], () =>
        FileResponse.from(letters, { disposition: 'attachment', filename: 'résumé "q3"\r\nx-injected: 1.txt' }),
      ),
      'GET /handle': defineController([], async () => FileResponse.from(await given(letters), { contentType: 'text/plain' })),
      'GET /big-handle': defineController([], async () => FileResponse.from(await given(big))),
      'GET /blob': defineController([], () =>
        FileResponse.from(new File(['# Notes\n'], 'notes.md', { type: 'text/markdown', lastModified: NOTES_MODIFIED }), {
          disposition: 'inline',
        }),
      ),
      'GET /text': defineController([], () => new Response('0123456789', 200, { etag: '"text-1"', 'content-type': 'text/plain' })),
      'GET /stream': defineController([], () => new Response(chunks(), 200, { 'content-type': 'text/plain' })),
    },
    { subscribers: [new RangeListener({ maxRanges: 4 })] },
  );
  return { app, handles, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function* chunks(): AsyncGenerator<string> {
  yield 'stream ';
  yield 'of unknown length';
}

/** Splits a `multipart/byteranges` body into its parts' headers and bodies. */
export function byteranges(body: string, contentType: string): { headers: Record<string, string>; body: string }[] {
  const boundary = /boundary=([^;]+)/.exec(contentType)?.[1];
  if (boundary === undefined) throw new Error(`no boundary in ${contentType}`);
  const parts = body.split(`--${boundary}`).slice(1, -1);
  return parts.map((part) => {
    const [head = '', content = ''] = part.replace(/^\r\n/, '').split('\r\n\r\n');
    const headers = Object.fromEntries(head.split('\r\n').map((line) => line.split(': ') as [string, string]));
    return { headers, body: content.replace(/\r\n$/, '') };
  });
}
