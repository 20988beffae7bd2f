/**
 * The notes API of docs/getting-started.md (and, the same, of README.md), run as it is written
 * there: a node process serving the built packages, asked over HTTP on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';

const packageDir = join(import.meta.dirname, '..');
const repository = join(packageDir, '../..');
const notesBlock = (page: string): string | undefined =>
  /```js\n(\/\/ notes\.mjs[\s\S]*?)```/.exec(readFileSync(join(repository, page), 'utf8'))?.[1];
const example = notesBlock('docs/getting-started.md')!;
// Inside the package, so its imports resolve to the workspace's packages.
const file = join(packageDir, 'notes.guide-example.mjs');
const child = { process: undefined as ReturnType<typeof spawn> | undefined, stderr: '' };
let base = '';

beforeAll(async () => {
  writeFileSync(file, example);
  const started = spawn(process.execPath, [file], { cwd: packageDir, env: { ...process.env, PORT: '0' } });
  child.process = started;
  started.stderr.setEncoding('utf8').on('data', (chunk: string) => (child.stderr += chunk));
  const [line] = (await once(started.stdout.setEncoding('utf8'), 'data')) as [string];
  base = /listening on (http:\/\/\S+?)\/?$/m.exec(line)![1]!;
});

afterAll(async () => {
  child.process?.kill('SIGTERM');
  if (child.process?.exitCode === null) await once(child.process, 'exit');
  rmSync(file, { force: true });
});

const json = { 'content-type': 'application/json' };

it('is the same code in README.md and docs/getting-started.md', () => {
  expect(notesBlock('README.md')).toBe(example);
});

it('creates, lists, shows and deletes notes', async () => {
  const created = await fetch(`${base}/notes`, { method: 'POST', headers: json, body: JSON.stringify({ text: 'buy milk' }) });
  expect([created.status, created.headers.get('location'), await created.json()]).toEqual([201, '/notes/1', { id: 1, text: 'buy milk' }]);
  const listed = await fetch(`${base}/notes`);
  expect([listed.status, listed.headers.get('cache-control'), await listed.json()]).toEqual([
    200,
    'no-cache, private',
    [{ id: 1, text: 'buy milk' }],
  ]);
  expect(await (await fetch(`${base}/notes/1`)).json()).toEqual({ id: 1, text: 'buy milk' });
  expect((await fetch(`${base}/notes/1`, { method: 'DELETE' })).status).toBe(204);
  expect((await fetch(`${base}/notes/1`)).status).toBe(404);
});

it('answers errors as problem+json for */* and without Accept', async () => {
  for (const accept of ['*/*', undefined]) {
    const missing = await fetch(`${base}/notes/99`, accept === undefined ? {} : { headers: { accept } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(await missing.json()).toMatchObject({ status: 404, title: 'Not Found' });
  }
  const invalid = await fetch(`${base}/notes`, { method: 'POST', headers: { ...json, accept: '*/*' }, body: JSON.stringify({ text: '' }) });
  expect([invalid.status, invalid.headers.get('content-type')]).toEqual([422, 'application/problem+json']);
  const wrongMethod = await fetch(`${base}/notes/1`, { method: 'PUT' });
  expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'GET, DELETE']);
  // A browser asking for HTML still gets the page.
  expect((await fetch(`${base}/nope`, { headers: { accept: 'text/html' } })).headers.get('content-type')).toMatch(/^text\/html/);
});
