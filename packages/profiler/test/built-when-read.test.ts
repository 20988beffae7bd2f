/**
 * kernel.terminate keeps each request's recording; its profile's data is collected, redacted and
 * serialised when something reads it: a page or test client (through the memory storage), or a
 * storage's writer writing it out.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { defineController, JsonResponse, Request } from '@switchboard/http-kernel';
import { FileProfilerStorage, MemoryProfilerStorage } from '../src/index.js';
import { RecordedProfile, type ProfileData } from '../src/storage.js';
import { profiledKernel } from './support/profiled-kernel.js';

/** A memory storage keeping what each write was given. */
class KeepingStorage extends MemoryProfilerStorage {
  readonly given: ProfileData[] = [];
  override async write(profile: ProfileData, serialised?: string): Promise<void> {
    this.given.push(profile);
    await super.write(profile, serialised);
  }
}

const hello = defineController([], () => new JsonResponse({ hello: 'world' }));
const SECRET = 'k3y-from-the-query';

it('stores recorded profiles unbuilt, counted by their estimate, and builds each redacted when it is read', async () => {
  const storage = new KeepingStorage();
  const app = profiledKernel({ '/hello': hello }, { storage });
  await app.handle(Request.fromUrl(`http://localhost/hello?api_key=${SECRET}`));
  const response = await app.handle(Request.fromUrl(`http://localhost/missing?api_key=${SECRET}`));
  // The 404 makes two profiles: the error sub-request's and the main request's.
  const recorded = storage.given.filter((profile): profile is RecordedProfile => profile instanceof RecordedProfile);
  expect(recorded).toHaveLength(3);
  expect(recorded.map((profile) => profile.isBuilt)).toEqual([false, false, false]);
  expect(storage.bytes).toBe(recorded.reduce((sum, profile) => sum + profile.estimatedBytes, 0));
  // The summary is there at once, its URL redacted.
  expect(recorded[2]!.url).toBe('http://localhost/missing?api_key=[redacted]');

  const main = await app.profiler.loadProfile(response.headers.get('x-previous-debug-token')!);
  expect(main?.children.map((child) => child.token)).toEqual([recorded[1]!.token]);
  // Reading a profile built it (and its child, loaded with it); the first request's is still a recording.
  expect(recorded.map((profile) => profile.isBuilt)).toEqual([false, true, true]);
  const request = main?.getCollector<{ query: unknown; url: string }>('request');
  expect(request?.url).toBe('http://localhost/missing?api_key=[redacted]');
  expect(request?.query).toEqual([['api_key', '[redacted]']]);
  expect(recorded.slice(1).some((profile) => profile.json.includes(SECRET))).toBe(false);
  expect(JSON.parse(recorded[2]!.json)).toEqual(JSON.parse(JSON.stringify(main?.toData())));
});

it('a file storage builds each profile when its writer writes it, redacted', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'profiler-built-when-read-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const storage = new FileProfilerStorage({ directory });
  const given: ProfileData[] = [];
  const write = storage.write.bind(storage);
  storage.write = (profile, serialised) => {
    given.push(profile);
    return write(profile, serialised);
  };
  const app = profiledKernel({ '/hello': hello }, { storage });
  const response = await app.handle(Request.fromUrl(`http://localhost/hello?password=${SECRET}`));
  const token = response.headers.get('x-debug-token')!;
  expect(await storage.flush(10_000)).toBe(true);
  const [profile] = given;
  expect(profile).toBeInstanceOf(RecordedProfile);
  expect((profile as RecordedProfile).isBuilt).toBe(true);
  const file = readFileSync(join(directory, `${token}.json`), 'utf8');
  expect(file).toBe((profile as RecordedProfile).json);
  expect(file).not.toContain(SECRET);
  expect((JSON.parse(file) as ProfileData).collectors).toHaveProperty('request.url', 'http://localhost/hello?password=[redacted]');
});
