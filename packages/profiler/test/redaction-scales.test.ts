/**
 * A profile is fully redacted however many secret-named values the request carried: a query of
 * thousands of `token=…` values once made every string of the profile be searched for every one
 * of them. Here the work is counted, not timed: how many texts are scanned and how many characters
 * read, for N and 4N values, by the profiler's one-pass `SecretMatcher`, the kernel's
 * `TextRedactor` and every string search (the per-secret `includes`/`split` of the quadratic
 * redaction counted about 14 times the work for 4 times the values). How the build time grows is
 * measured in `bench/redaction-scaling.bench.ts`.
 */
import { expect, it } from 'vitest';
import { defineController, JsonResponse, Request } from '@switchboard/http-kernel';
import { TextRedactor } from '@switchboard/http-kernel/redaction';
import { SecretMatcher } from '../src/profile/secret-matcher.js';
import { profiledKernel } from './support/profiled-kernel.js';

const hello = defineController([], () => new JsonResponse({ hello: 'world' }));

const secretQuery = (count: number): string => Array.from({ length: count }, (_, i) => `token=secret-value-${i}`).join('&');

async function profileOf(query: string) {
  const app = profiledKernel({ '/hello': hello });
  const response = await app.handle(
    Request.fromUrl(`http://localhost/hello?${query}`, { headers: { referer: `http://localhost/?${query}` } }),
  );
  return (await app.profiler.loadProfile(response.headers.get('x-debug-token')!))!;
}

/** String methods that search or cut a text: a search of every text for each secret goes through them. */
const SEARCHES = ['includes', 'indexOf', 'lastIndexOf', 'split', 'replace', 'replaceAll', 'match', 'matchAll', 'search'] as const;

/**
 * Wraps `owner[name]` so that each call first reports the text it reads (its first argument, or
 * for a string method the string itself), then runs the real method. Returns what puts it back.
 * Hand-made rather than `vi.spyOn`, which keeps every call's arguments.
 */
function countCalls(owner: object, name: string, onCall: (text: unknown) => void, readsThis: boolean): () => void {
  const methods = owner as Record<string, (...args: unknown[]) => unknown>;
  const original = methods[name]!;
  methods[name] = function (this: unknown, ...args: unknown[]) {
    if (!readsThis || !calledByNode()) onCall(readsThis ? this : args[0]);
    return original.apply(this, args);
  };
  return () => {
    methods[name] = original;
  };
}

/**
 * Whether the string method being counted was called from one of Node's own modules (`node:…`):
 * from Node 24 on, its query parser calls `indexOf` on the whole query once per value, which is
 * Node's parse, not redaction. Frames: this function, the counting wrapper, then the caller.
 */
function calledByNode(): boolean {
  const prepare = Error.prepareStackTrace;
  Error.prepareStackTrace = (_error, sites) => sites;
  const sites = new Error().stack as unknown as NodeJS.CallSite[];
  Error.prepareStackTrace = prepare;
  return sites[2]?.getFileName()?.startsWith('node:') ?? false;
}

/**
 * The work of handling a request with `count` secret values and building its profile: texts
 * scanned and characters read by the one-pass `SecretMatcher`, by the kernel's `TextRedactor`, and
 * by any string search (`includes`, `split`…) the application made meanwhile (see `calledByNode`).
 */
async function redactionWork(count: number): Promise<{ scans: number; characters: number }> {
  const work = { scans: 0, characters: 0 };
  const counted = (text: unknown) => {
    work.scans++;
    work.characters += String(text).length;
  };
  const restores = [
    countCalls(SecretMatcher.prototype, 'replace', counted, false),
    countCalls(TextRedactor.prototype, 'text', counted, false),
    ...SEARCHES.map((name) => countCalls(String.prototype, name, counted, true)),
  ];
  let data: string;
  try {
    const query = secretQuery(count);
    const app = profiledKernel({ '/hello': hello });
    const response = await app.handle(
      Request.fromUrl(`http://localhost/hello?${query}`, { headers: { referer: `http://localhost/?${query}` } }),
    );
    data = JSON.stringify((await app.profiler.loadProfile(response.headers.get('x-debug-token')!))!.toData());
  } finally {
    for (const restore of restores) restore();
  }
  expect(data).not.toContain('secret-value-');
  return work;
}

it('redacts every one of 8,000 secret-named query values from the URL, the query panel and the headers', async () => {
  const profile = await profileOf(secretQuery(8000));
  expect(JSON.stringify(profile.toData())).not.toContain('secret-value-');
  expect(profile.url.startsWith('http://localhost/hello?token=[redacted]&token=[redacted]&')).toBe(true);
});

it('does work linear in the number of secret-named values: four times the values, about four times the texts and characters read', async () => {
  const small = await redactionWork(500);
  const large = await redactionWork(2000);
  // Every string of the profile is read, the URL and the query's values among them.
  expect(small.characters).toBeGreaterThan(2 * secretQuery(500).length);
  // Quadratic work (each text searched once per secret) would be about 16 times.
  expect(large.scans).toBeLessThan(5 * small.scans);
  expect(large.characters).toBeLessThan(5 * small.characters);
});
