import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileProfilerStorage, MemoryProfilerStorage } from '../src/index.js';
import { sampleProfile, storageContract } from '../src/testing.js';

const clock = 1_000_000;
const now = () => clock;

const profile = (token: string) => sampleProfile(token, clock);

const directories: string[] = [];
function tempDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'profiler-store-'));
  directories.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('MemoryProfilerStorage (the storage contract)', () => {
  for (const contract of storageContract({ create: (bounds, now) => new MemoryProfilerStorage(bounds, now) }))
    it(contract.name, contract.run);
});
describe('FileProfilerStorage (the storage contract)', () => {
  const file = storageContract({
    create: (bounds, now) => new FileProfilerStorage({ directory: tempDirectory(), ...bounds }, now),
    settle: (storage) => storage.flush(),
  });
  for (const contract of file) it(contract.name, contract.run);
});

describe('the storage contract of @switchboard/profiler/testing', () => {
  it('fails a storage that breaks it, naming the case', async () => {
    // A memory storage that ignores maxProfiles: keeps every profile.
    const contract = storageContract({ create: (_bounds, now) => new MemoryProfilerStorage({}, now) });
    const outcomes = await Promise.all(
      contract.map((c) =>
        c.run().then(
          () => `${c.name}: met`,
          () => `${c.name}: broken`,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.endsWith('broken'))).toEqual([
      'keeps at most maxProfiles, dropping the oldest: broken',
      'writing a token again replaces its profile and makes it the newest: broken',
      'drops profiles older than maxAgeMs: broken',
    ]);
  });
});

describe('FileProfilerStorage files', () => {
  it('writes one file per profile named after its token, and deletes the files of dropped profiles', async () => {
    const directory = tempDirectory();
    const storage = new FileProfilerStorage({ directory, maxProfiles: 2 }, now);
    for (const token of ['00000a', '00000b', '00000c']) await storage.write(profile(token));
    await storage.flush();
    expect(readdirSync(directory).sort()).toEqual(['00000b.json', '00000c.json', 'index.jsonl']);
  });

  it('makes its directory private (0700, also an existing one) and creates every file 0600', async () => {
    const parent = tempDirectory();
    chmodSync(parent, 0o755);
    const nested = join(parent, 'a', 'b');
    const storage = new FileProfilerStorage({ directory: nested, maxProfiles: 1 }, now);
    new FileProfilerStorage({ directory: parent }, now);
    for (const token of ['00000a', '00000b']) await storage.write(profile(token));
    await storage.flush();
    for (const folder of [parent, join(parent, 'a'), nested]) expect(statSync(folder).mode & 0o777, folder).toBe(0o700);
    for (const name of readdirSync(nested)) expect(statSync(join(nested, name)).mode & 0o777, name).toBe(0o600);
  });

  it('finds its profiles again after a restart, within the (possibly smaller) bounds', async () => {
    const directory = tempDirectory();
    const first = new FileProfilerStorage({ directory }, now);
    for (const token of ['00000a', '00000b', '00000c']) await first.write(profile(token));
    await first.flush();
    const second = new FileProfilerStorage({ directory, maxProfiles: 2 }, now);
    await second.flush();
    expect(second.has('00000a')).toBe(false);
    expect(existsSync(join(directory, '00000a.json'))).toBe(false);
    expect((await second.read('00000c'))?.url).toBe('http://localhost/00000c');
    expect((await second.find({})).map((p) => p.token)).toEqual(['00000c', '00000b']);
  });

  it('ignores index lines with unsafe tokens, so a damaged index never names another file', async () => {
    const directory = tempDirectory();
    writeFileSync(join(directory, 'index.jsonl'), `${JSON.stringify({ token: '../../etc/passwd', time: clock, url: 'x' })}\nnot json\n`);
    const storage = new FileProfilerStorage({ directory }, now);
    expect(storage.size).toBe(0);
    expect(await storage.read('../../etc/passwd')).toBeNull();
  });

  it('rewrites the index once it holds twice the live entries', async () => {
    const directory = tempDirectory();
    const storage = new FileProfilerStorage({ directory, maxProfiles: 20 }, now);
    for (let i = 0; i < 200; i++) await storage.write(profile(i.toString(16).padStart(6, '0')));
    await storage.flush();
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(join(directory, 'index.jsonl'), 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(2 * 20 + 1);
    expect(readdirSync(directory).filter((name) => name.endsWith('.json'))).toHaveLength(20);
  });
});
