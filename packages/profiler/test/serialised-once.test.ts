/**
 * The profiler serialises each profile once and hands that JSON to the storage with it: the
 * memory storage counts its bytes from it, the file storage writes it as it is.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { defineController, JsonResponse, Request } from '@switchboard/http-kernel';
import { FileProfilerStorage, MemoryProfilerStorage, type ProfileData, type ProfilerStorage } from '../src/index.js';
import { profiledKernel } from './support/profiled-kernel.js';

/** A storage keeping the JSON each write was given. */
class KeepingStorage extends MemoryProfilerStorage {
  readonly given: Array<string | undefined> = [];
  override async write(profile: ProfileData, serialised?: string): Promise<void> {
    this.given.push(serialised);
    await super.write(profile, serialised);
  }
}

const hello = defineController([], () => new JsonResponse({ hello: 'world' }));

it('hands the storage the JSON of each profile it writes, and the memory storage counts it', async () => {
  const storage = new KeepingStorage();
  const app = profiledKernel({ '/hello': hello }, { storage });
  await app.handle(Request.fromUrl('http://localhost/hello'));
  await app.handle(Request.fromUrl('http://localhost/missing'));
  // The 404 makes two profiles: the error sub-request's and the main request's.
  expect(storage.given).toHaveLength(3);
  const stored = await Promise.all(storage.given.map((json) => storage.read((JSON.parse(json!) as ProfileData).token)));
  expect(stored.map((profile) => JSON.stringify(profile))).toEqual(storage.given);
  expect(storage.bytes).toBe(storage.given.reduce((sum, json) => sum + json!.length, 0));
});

it('uses the JSON it was given, and serialises the profile itself without one', async () => {
  const profile: ProfileData = {
    token: 'abc123',
    parentToken: null,
    ip: '127.0.0.1',
    method: 'GET',
    url: 'http://localhost/',
    time: Date.now(),
    statusCode: 200,
    virtualType: 'request',
    childTokens: [],
    collectors: { note: 'é' },
  };
  const memory = new MemoryProfilerStorage();
  await memory.write(profile);
  expect(memory.bytes).toBe(JSON.stringify(profile).length);
  await memory.write(profile, `${JSON.stringify(profile)}   `);
  expect(memory.bytes).toBe(JSON.stringify(profile).length + 3);

  const directory = mkdtempSync(join(tmpdir(), 'profiler-serialised-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const files: ProfilerStorage & { flush(ms: number): Promise<unknown> } = new FileProfilerStorage({ directory });
  await files.write(profile, `${JSON.stringify(profile)}\n`);
  await files.flush(5_000);
  const written = readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('abc123'));
  expect(written).toHaveLength(1);
  expect(readFileSync(join(directory, written[0]!), 'utf8')).toBe(`${JSON.stringify(profile)}\n`);
});
