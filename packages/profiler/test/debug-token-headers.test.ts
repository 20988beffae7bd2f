import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventDispatcher, HttpKernel, Request, Response, type KernelEventMap } from '@switchboard/http-kernel';
import type { EventsData, ExceptionData } from '../src/collector.js';
import { FileProfilerStorage, Profiler, registerProfiler } from '../src/index.js';
import { profiledKernel } from './support/profiled-kernel.js';

const HEX6 = /^[0-9a-f]{6}$/;

describe('debug token headers (docs/profiler.md)', () => {
  it('names the error sub-request in x-debug-token and its link, the failed main request in x-previous-debug-token', async () => {
    const app = profiledKernel();
    const response = await app.handle(
      Request.fromUrl('http://localhost:8080/robots.txt', { headers: { referer: 'http://localhost/start' } }),
    );
    expect(response.status).toBe(404);
    const token = response.headers.get('x-debug-token')!;
    const previous = response.headers.get('x-previous-debug-token')!;
    expect(token).toMatch(HEX6);
    expect(previous).toMatch(HEX6);
    expect(previous).not.toBe(token);
    expect(response.headers.get('x-debug-token-link')).toBe(`http://localhost:8080/_profiler/${token}`);

    const sub = (await app.profiler.loadProfile(token))!;
    const main = (await app.profiler.loadProfile(previous))!;
    // The token's profile is the sub-request, a child of the failed main request.
    expect(sub.parentToken).toBe(main.token);
    expect(main.parentToken).toBeNull();
    expect(main.childTokens).toEqual([sub.token]);
    expect(sub.parent?.token).toBe(main.token);
    expect(main.children.map((child) => child.token)).toEqual([sub.token]);
    // Both show the exception.
    for (const profile of [sub, main]) {
      const error = profile.getCollector<ExceptionData>('exception')!.error;
      expect(error.message).toBe('No route found for "GET http://localhost:8080/robots.txt" (from "http://localhost/start")');
      expect(error.cause?.message).toBe('No routes found for "/robots.txt/".');
      expect(profile.statusCode).toBe(404);
    }
    // The main request is the one whose routing failed.
    const events = main
      .getCollector<EventsData>('events')!
      .dispatches.filter((d) => d.requestType === 'main')
      .map((d) => d.event);
    expect(events).toEqual(['kernel.request', 'kernel.exception', 'kernel.response', 'kernel.finish_request']);
  });

  it('sets only x-debug-token and its link on a plain response', async () => {
    const app = profiledKernel({ '/hello': () => new Response('hi') });
    const response = await app.handle(Request.fromUrl('https://example.test/hello'));
    expect(response.status).toBe(200);
    const token = response.headers.get('x-debug-token')!;
    expect(token).toMatch(HEX6);
    expect(response.headers.has('x-previous-debug-token')).toBe(false);
    expect(response.headers.get('x-debug-token-link')).toBe(`https://example.test/_profiler/${token}`);
    const profile = (await app.profiler.loadProfile(token))!;
    expect(profile.hasCollector('exception')).toBe(false);
    expect(profile.childTokens).toEqual([]);
  });

  it('moves a token that came from elsewhere (a proxied response) to x-previous-debug-token, as Symfony does', async () => {
    const app = profiledKernel({ '/proxy': () => new Response('upstream', 200, { 'x-debug-token': 'abcdef' }) });
    const response = await app.handle(Request.fromUrl('http://localhost/proxy'));
    expect(response.headers.get('x-previous-debug-token')).toBe('abcdef');
    expect(response.headers.get('x-debug-token')).not.toBe('abcdef');
    expect(response.headers.get('x-debug-token-link')).toBe(`http://localhost/_profiler/${response.headers.get('x-debug-token')}`);
  });

  it('does not profile the profiler pages', async () => {
    const app = profiledKernel();
    await app.handle(Request.fromUrl('http://localhost/missing'));
    const before = app.profiler.storage.size;
    const page = await app.handle(Request.fromUrl('http://localhost/_profiler/latest'));
    expect(page.status).toBe(200);
    expect(page.headers.has('x-debug-token')).toBe(false);
    expect(page.headers.has('x-debug-token-link')).toBe(false);
    const unknown = await app.handle(Request.fromUrl('http://localhost/_profiler/000000'));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.has('x-debug-token')).toBe(false);
    expect(app.profiler.storage.size).toBe(before);
  });

  it('gives every request its own token, unique among stored profiles, from a random source', async () => {
    const app = profiledKernel({ '/ok': () => new Response('ok') });
    const tokens = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const response = await app.handle(Request.fromUrl('http://localhost/ok'));
      tokens.add(response.headers.get('x-debug-token')!);
    }
    expect(tokens.size).toBe(300);
    // Not sequential: consecutive tokens are not neighbours.
    const numbers = [...tokens].map((token) => parseInt(token, 16));
    const neighbours = numbers.slice(1).filter((n, i) => Math.abs(n - numbers[i]!) <= 1).length;
    expect(neighbours).toBe(0);
  });

  it('keeps concurrent request chains apart', async () => {
    const app = profiledKernel({
      '/slow': async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return new Response('slow');
      },
    });
    const [slow, missing] = await Promise.all([
      app.handle(Request.fromUrl('http://localhost/slow')),
      app.handle(Request.fromUrl('http://localhost/missing')),
    ]);
    const slowProfile = (await app.profiler.loadProfile(slow.headers.get('x-debug-token')!))!;
    const missingMain = (await app.profiler.loadProfile(missing.headers.get('x-previous-debug-token')!))!;
    expect(slowProfile.url).toBe('http://localhost/slow');
    expect(slowProfile.childTokens).toEqual([]);
    expect(slowProfile.hasCollector('exception')).toBe(false);
    expect(missingMain.url).toBe('http://localhost/missing');
    const slowEvents = slowProfile.getCollector<EventsData>('events')!.dispatches.map((d) => d.event);
    expect(slowEvents).not.toContain('kernel.exception');
  });

  it('saves both profiles of an error chain in a file storage, and finds them again after a restart', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'profiler-files-'));
    try {
      const app = profiledKernel({}, { storage: new FileProfilerStorage({ directory }) });
      const response = await app.handle(Request.fromUrl('http://localhost/missing'));
      const token = response.headers.get('x-debug-token')!;
      const previous = response.headers.get('x-previous-debug-token')!;
      await (app.profiler.storage as FileProfilerStorage).flush();
      expect(readdirSync(directory).sort()).toEqual([`${previous}.json`, `${token}.json`, 'index.jsonl'].sort());
      const restarted = new Profiler({ storage: new FileProfilerStorage({ directory }) });
      const main = (await restarted.loadProfile(previous))!;
      expect(main.children.map((child) => child.token)).toEqual([token]);
      expect(main.getCollector<ExceptionData>('exception')!.error.status).toBe(404);
      expect((await restarted.latest({ ip: '127.0.0.1' }))?.token).toBe(previous);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('gives a response shared caches may store the link as the path and query the URL parser reads', async () => {
    const links = [
      'http://127.0.0.1:8080/_profiler/abc123',
      'https://example.test/_profiler/abc123?panel=time&x=a%2Fb',
      'http://example.test/a/./b/../c?x=1 2#frag',
      'http://example.test?q/x',
      'http://example.test\\x/y',
      'https://example.test/p?',
      'http://example.test:99999/p',
      'not a url',
    ];
    const linkOf = async (link: string, cacheControl?: string): Promise<string | undefined> => {
      const dispatcher = new EventDispatcher<KernelEventMap>();
      const kernel = new HttpKernel({ dispatcher: registerProfiler(dispatcher, new Profiler(), { linkFor: () => link }) });
      const request = Request.fromUrl('http://localhost/');
      const headers: Record<string, string> = cacheControl === undefined ? {} : { 'cache-control': cacheControl };
      request.attributes.set('_controller', () => new Response('ok', 200, headers));
      return (await kernel.handle(request)).headers.get('x-debug-token-link');
    };
    for (const link of links) {
      const parsed = URL.canParse(link) ? new URL(link) : null;
      expect(await linkOf(link, 'public, max-age=60')).toBe(parsed === null ? link : `${parsed.pathname}${parsed.search}`);
    }
    // Stating nothing makes a response private (`no-cache, private`): the whole link.
    expect(await linkOf(links[1]!)).toBe(links[1]);
    // Only an unqualified private or a no-store keeps the whole link.
    const plain = links[0]!;
    for (const [cacheControl, whole] of [
      ['public, max-age=60', false],
      ['private=set-cookie', false],
      ['max-age=5, PRIVATE', true],
      ['no-store="x"', true],
      ['public, no-storex', false],
    ] as const) {
      expect(await linkOf(plain, cacheControl)).toBe(whole ? plain : '/_profiler/abc123');
    }
  });

  it('sets x-debug-error instead of a link when the URL cannot be generated', async () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    const profiler = new Profiler();
    const traced = registerProfiler(dispatcher, profiler, {
      linkFor: () => {
        throw new Error('Unable to generate a URL for the named route "_profiler"\r\nas such route does not exist.');
      },
    });
    const kernel = new HttpKernel({ dispatcher: traced });
    const request = Request.fromUrl('http://localhost/');
    request.attributes.set('_controller', () => new Response('ok'));
    const response = await kernel.handle(request);
    expect(response.headers.get('x-debug-token')).toMatch(HEX6);
    expect(response.headers.has('x-debug-token-link')).toBe(false);
    expect(response.headers.get('x-debug-error')).toBe(
      'Unable to generate the profiler link: Unable to generate a URL for the named route "_profiler" as such route does not exist.',
    );
  });
});
