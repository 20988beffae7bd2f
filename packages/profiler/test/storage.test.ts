import { mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileProfilerStorage, MemoryProfilerStorage, type ProfileData, type ProfilerStorage } from '../src/index.js';

let clock = 1_000_000;
const now = () => clock;

function profile(token: string, overrides: Partial<ProfileData> = {}): ProfileData {
  return {
    token,
    parentToken: null,
    ip: '127.0.0.1',
    method: 'GET',
    url: `http://localhost/${token}`,
    time: clock,
    statusCode: 200,
    virtualType: 'request',
    childTokens: [],
    collectors: { request: { note: token } },
    ...overrides,
  };
}

const directories: string[] = [];
function tempDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'profiler-store-'));
  directories.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const storages: Array<[string, (bounds: { maxProfiles?: number; maxAgeMs?: number }) => ProfilerStorage]> = [
  ['MemoryProfilerStorage', (bounds) => new MemoryProfilerStorage(bounds, now)],
  ['FileProfilerStorage', (bounds) => new FileProfilerStorage({ directory: tempDirectory(), ...bounds }, now)],
];

describe.each(storages)('%s', (_name, create) => {
  it('reads back what it wrote, and nothing for an unknown token', async () => {
    const storage = create({});
    await storage.write(profile('aaaaaa'));
    expect(await storage.read('aaaaaa')).toEqual(profile('aaaaaa'));
    expect(storage.has('aaaaaa')).toBe(true);
    expect(await storage.read('bbbbbb')).toBeNull();
    expect(storage.has('bbbbbb')).toBe(false);
  });

  it('keeps at most maxProfiles, dropping the oldest', async () => {
    const storage = create({ maxProfiles: 3 });
    for (const token of ['000001', '000002', '000003', '000004', '000005']) await storage.write(profile(token));
    expect(storage.size).toBe(3);
    expect(await storage.read('000001')).toBeNull();
    expect(await storage.read('000002')).toBeNull();
    expect((await storage.find({ limit: 10 })).map((p) => p.token)).toEqual(['000005', '000004', '000003']);
  });

  it('drops profiles older than maxAgeMs', async () => {
    const storage = create({ maxAgeMs: 1000 });
    await storage.write(profile('0000aa'));
    clock += 600;
    await storage.write(profile('0000bb'));
    clock += 600;
    expect(await storage.read('0000aa')).toBeNull();
    expect(await storage.read('0000bb')).not.toBeNull();
    await storage.write(profile('0000cc'));
    expect((await storage.find({})).map((p) => p.token)).toEqual(['0000cc', '0000bb']);
  });

  it('finds by ip, method, url substring, status, type and time range, newest first, up to the limit', async () => {
    const storage = create({});
    const start = clock;
    await storage.write(profile('000a01', { ip: '10.0.0.1', method: 'GET', url: 'http://h/robots.txt', statusCode: 404 }));
    clock += 10;
    await storage.write(profile('000a02', { ip: '10.0.0.2', method: 'POST', url: 'http://h/api/items', statusCode: 201 }));
    clock += 10;
    await storage.write(
      profile('000a03', { ip: '10.0.0.1', method: 'GET', url: 'http://h/api/items', statusCode: 200, virtualType: 'command' }),
    );
    clock += 10;
    await storage.write(profile('000a04', { ip: '::ffff:10.0.0.1', method: 'GET', url: 'http://h/favicon.ico', statusCode: 404 }));
    const tokens = async (search: Parameters<ProfilerStorage['find']>[0]) => (await storage.find(search)).map((p) => p.token);
    expect(await tokens({})).toEqual(['000a04', '000a03', '000a02', '000a01']);
    expect(await tokens({ ip: '10.0.0.1' })).toEqual(['000a04', '000a03', '000a01']);
    expect(await tokens({ method: 'post' })).toEqual(['000a02']);
    expect(await tokens({ url: '/api/' })).toEqual(['000a03', '000a02']);
    expect(await tokens({ statusCode: 404 })).toEqual(['000a04', '000a01']);
    expect(await tokens({ virtualType: 'command' })).toEqual(['000a03']);
    expect(await tokens({ start: start + 10, end: start + 20 })).toEqual(['000a03', '000a02']);
    expect(await tokens({ limit: 2 })).toEqual(['000a04', '000a03']);
    expect(await tokens({ limit: 0 })).toEqual([]);
  });

  it('treats tokens that are not lowercase hex as unknown', async () => {
    const storage = create({});
    await storage.write(profile('abcdef'));
    for (const hostile of ['../../etc/passwd', '..', '%2e%2e', 'ABCDEF', '', 'abcdef/../abcdef']) {
      expect(await storage.read(hostile)).toBeNull();
    }
  });

  it('purges everything', async () => {
    const storage = create({});
    await storage.write(profile('abcdef'));
    await storage.purge();
    expect(storage.size).toBe(0);
    expect(await storage.read('abcdef')).toBeNull();
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
