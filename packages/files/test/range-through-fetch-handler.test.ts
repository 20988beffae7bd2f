import { createFetchHandler, type FetchHandler } from '@switchboard/node-adapter';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { byteranges, fileFixture, LETTERS, type FileFixture } from './support/file-routes.js';

let fixture: FileFixture;
let handle: FetchHandler;

beforeAll(() => {
  fixture = fileFixture();
  handle = createFetchHandler(fixture.app.kernel);
});
afterAll(() => fixture?.remove());

function send(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<globalThis.Response> {
  return handle(new Request(`http://127.0.0.1${path}`, { method, headers }));
}

describe('FileResponse and Range through the fetch handler', () => {
  it('streams a file with its headers, and answers HEAD without a body', async () => {
    const full = await send('/file');
    expect([full.status, await full.text()]).toEqual([200, LETTERS]);
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('content-length')).toBe(String(LETTERS.length));
    const head = await send('/file', {}, 'HEAD');
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String(LETTERS.length), '']);
  });

  it('answers one range, several ranges, and an unsatisfiable one', async () => {
    const one = await send('/file', { range: 'bytes=26-30' });
    expect([one.status, one.headers.get('content-range'), await one.text()]).toEqual([206, `bytes 26-30/${LETTERS.length}`, 'abcde']);
    const several = await send('/file', { range: 'bytes=0-2,27-28' });
    expect(several.status).toBe(206);
    const parts = byteranges(await several.text(), several.headers.get('content-type')!);
    expect(parts.map((part) => part.body)).toEqual(['abc', 'bc']);
    const none = await send('/file', { range: 'bytes=5000-' });
    expect([none.status, none.headers.get('content-range')]).toEqual([416, `bytes */${LETTERS.length}`]);
  });

  it('honours If-Range and the preconditions before it', async () => {
    const etag = (await send('/file')).headers.get('etag')!;
    expect((await send('/file', { range: 'bytes=0-1', 'if-range': etag })).status).toBe(206);
    const mismatch = await send('/file', { range: 'bytes=0-1', 'if-range': '"old"' });
    expect([mismatch.status, await mismatch.text()]).toEqual([200, LETTERS]);
    expect((await send('/file', { 'if-none-match': etag, range: 'bytes=0-1' })).status).toBe(304);
    expect((await send('/file', { 'if-match': '"old"' })).status).toBe(412);
    expect((await send('/file', { 'if-match': `W/${etag}` })).status).toBe(412);
    expect((await send('/file', { 'if-match': etag, range: 'bytes=0-0' })).status).toBe(206);
    expect((await send('/file', { 'if-unmodified-since': 'Thu, 01 Jan 2015 00:00:00 GMT' })).status).toBe(412);
    expect((await send('/blob', { 'if-unmodified-since': 'Fri, 02 Jan 2026 03:04:05 GMT' })).status).toBe(200);
  });

  it('serves ranges of a buffered body and of a File', async () => {
    expect(await (await send('/text', { range: 'bytes=-2' })).text()).toBe('89');
    const blob = await send('/blob', { range: 'bytes=2-6' });
    expect([blob.status, await blob.text()]).toEqual([206, 'Notes']);
  });

  it('closes a given FileHandle after a full body, a HEAD, a 416 and a reader that cancels mid-file', async () => {
    const first = fixture.handles.length;
    await (await send('/handle')).text();
    await send('/handle', {}, 'HEAD');
    await send('/handle', { range: 'bytes=9999-' });
    const big = await send('/big-handle');
    const reader = big.body!.getReader();
    await reader.read();
    await reader.cancel();
    const used = fixture.handles.slice(first);
    expect(used).toHaveLength(4);
    await vi.waitFor(() => expect(used.map((fileHandle) => fileHandle.fd)).toEqual([-1, -1, -1, -1]), { timeout: 5000, interval: 20 });
  });
});
