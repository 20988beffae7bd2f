import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveKernel, type ServedKernel } from '../../../test/kit/index.js';
import { hostKernel } from '../../../test/kit/host-kernel.js';
import { rawExchange, statusOfRaw } from '../../../test/kit/raw-http.js';
import { RangeListener, serveDirectory } from '../src/index.js';

const SECRET = 'SECRET-OUTSIDE-THE-ROOT';
let dir: string;
let server: ServedKernel;

/**
 * <dir>/secret.txt (outside the root) and <dir>/public/ (the root): files, a dotfile, a dot
 * folder, a sub-folder with an index, one without, and symbolic links in and out of the root.
 */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'serve-directory-'));
  const root = join(dir, 'public');
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(join(root, 'empty'));
  mkdirSync(join(root, '.git'));
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  writeFileSync(join(root, 'index.html'), '<h1>home</h1>');
  writeFileSync(join(root, 'app.js'), 'console.log(1);');
  writeFileSync(join(root, 'upload.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  writeFileSync(join(root, 'upload.xhtml'), '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>');
  writeFileSync(join(root, 'notes.txt'), '<script>alert(1)</script>');
  writeFileSync(join(root, '.env'), `TOKEN=${SECRET}`);
  writeFileSync(join(root, '.git', 'config'), SECRET);
  writeFileSync(join(root, 'docs', 'index.html'), '<h1>docs</h1>');
  symlinkSync(join(dir, 'secret.txt'), join(root, 'out.txt'));
  symlinkSync(dir, join(root, 'up'));
  symlinkSync(join(root, 'app.js'), join(root, 'in.js'));
  symlinkSync(join(root, '.env'), join(root, 'env.txt'));
  const app = hostKernel(
    {
      'GET /static/*path': serveDirectory(root),
      'GET /dotted/*path': serveDirectory(root, { dotfiles: true, index: false }),
      'GET /uploads/*path': serveDirectory(root, { activeContent: 'attachment' }),
      'GET /sniffed/*path': serveDirectory(root, { nosniff: false }),
    },
    { subscribers: [new RangeListener()] },
  );
  server = await serveKernel(app.kernel);
});
afterAll(async () => {
  await server?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** The request target goes out byte for byte: no client normalises `..` or decodes `%2e` first. */
async function rawGet(target: string): Promise<{ status: number; text: string }> {
  const text = await rawExchange(
    server.port,
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
  );
  return { status: statusOfRaw(text), text };
}

describe('serveDirectory', () => {
  it('serves files, with ranges, and a folder index', async () => {
    const file = await rawGet('/static/app.js');
    expect(file.status).toBe(200);
    expect(file.text).toContain('content-type: text/javascript; charset=utf-8');
    expect(file.text.endsWith('console.log(1);')).toBe(true);
    expect((await server.fetch('/static/app.js', { headers: { range: 'bytes=0-6' } })).body).toBe('console');
    expect((await server.fetch('/static/docs/')).body).toBe('<h1>docs</h1>');
    expect((await server.fetch('/static/in.js')).body).toBe('console.log(1);');
  });

  it.each([
    '/static/../secret.txt',
    '/static/%2e%2e/secret.txt',
    '/static/%2E%2E/secret.txt',
    '/static/docs/..%2f..%2fsecret.txt',
    '/static/..%5csecret.txt',
    '/static/..\\secret.txt',
    '/static/docs/%2e%2e/%2e%2e/secret.txt',
    '/static//etc/passwd',
    '/static/%2fetc%2fpasswd',
    '/static/app.js%00.html',
    '/static/out.txt',
    '/static/up/secret.txt',
    '/static/.env',
    '/static/.git/config',
    '/static/env.txt',
    '/static/empty/',
    '/static/missing.txt',
  ])('refuses %s with a 404 that reveals nothing', async (target) => {
    const { status, text } = await rawGet(target);
    expect(status).toBe(404);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('application/problem+json');
  });

  it('says nosniff on every file by default, and serves active types inline unless asked otherwise', async () => {
    for (const path of ['/static/app.js', '/static/upload.svg', '/static/notes.txt', '/static/docs/']) {
      const response = await server.fetch(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-disposition')).toBeNull();
    }
    expect((await server.fetch('/sniffed/notes.txt')).headers.get('x-content-type-options')).toBeNull();
  });

  it.each([
    ['/uploads/upload.svg', 'image/svg+xml', 'attachment; filename=upload.svg'],
    ['/uploads/upload.xhtml', 'application/xhtml+xml', 'attachment; filename=upload.xhtml'],
    ['/uploads/app.js', 'text/javascript; charset=utf-8', 'attachment; filename=app.js'],
    ['/uploads/docs/', 'text/html; charset=utf-8', 'attachment; filename=index.html'],
    ['/uploads/notes.txt', 'text/plain; charset=utf-8', null],
  ])('with activeContent "attachment", serves %s (%s) with disposition %s', async (path, type, disposition) => {
    const response = await server.fetch(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('content-disposition')).toBe(disposition);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves dotfiles only where allowed, and answers folders 404 without an index', async () => {
    expect((await server.fetch('/dotted/.env')).body).toBe(`TOKEN=${SECRET}`);
    expect((await rawGet('/dotted/docs/')).status).toBe(404);
    expect((await rawGet('/dotted/../secret.txt')).status).toBe(404);
  });
});
