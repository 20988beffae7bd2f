/**
 * Each published package must work outside the monorepo: built to dist/ with declarations,
 * packed (pnpm rewrites `workspace:*` to versions), installed by npm into a fresh project, then
 * type-checked and imported there.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const pnpm = ['-y', 'pnpm@10.34.8'];
/** Every published package, in dependency order. */
const packages = ['http-kernel', 'router', 'error-controller', 'node-adapter', 'cors', 'security', 'payload', 'http-cache', 'profiler'];

const work = mkdtempSync(join(tmpdir(), 'switchboard-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}

/** A consumer using every package through its published entry, types included. */
const CONSUMER = `
import { EventDispatcher, HttpKernel, JsonResponse, defineController, type KernelEventMap, type ResponseEvent } from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { ErrorListener } from '@switchboard/error-controller';
import { serve } from '@switchboard/node-adapter';
import { CorsListener } from '@switchboard/cors';
import { FirewallListener } from '@switchboard/security';
import { RequestPayloadValueResolver } from '@switchboard/payload';
import { CacheAttributeListener } from '@switchboard/http-cache';
import { Profiler } from '@switchboard/profiler';

const routes = new RouteCollection().add('hello', '/hello/:name', {
  methods: ['GET'],
  controller: defineController(['name'], (name: string) => new JsonResponse({ hello: name })),
});
const dispatcher = new EventDispatcher<KernelEventMap>();
dispatcher.addSubscriber(new RouterListener(new Router(routes)));
dispatcher.addSubscriber(new ErrorListener({ debug: false }));
dispatcher.on('kernel.response', (event: ResponseEvent) => { event.response.headers.set('x-packed', 'yes'); });
const running = await serve(new HttpKernel({ dispatcher }), { port: 0 });
const hello = await fetch(new URL('/hello/ada', running.url));
console.log(hello.status, await hello.text(), hello.headers.get('x-packed'));
const missing = await fetch(new URL('/nope', running.url), { headers: { accept: 'application/json' } });
console.log(missing.status, missing.headers.get('content-type'), missing.headers.get('vary'));
await running.close();
const exported = [CorsListener, FirewallListener, RequestPayloadValueResolver, CacheAttributeListener, Profiler, Router, ErrorListener, serve, HttpKernel];
console.log('exports:', exported.filter((value) => typeof value === 'function').length, 'packages');
`;

describe('packed packages', () => {
  it('install into a fresh project and import with types', { timeout: 300_000 }, () => {
    const tarballs: string[] = [];
    for (const name of packages) {
      const dir = join(root, 'packages', name);
      run('npx', [...pnpm, 'run', 'build'], dir);
      run('npx', [...pnpm, 'pack', '--pack-destination', work], dir);
    }
    for (const file of readdirSync(work)) if (file.endsWith('.tgz')) tarballs.push(join(work, file));
    expect(tarballs).toHaveLength(packages.length);

    const project = join(work, 'consumer');
    run('mkdir', ['-p', project], work);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], project);

    writeFileSync(join(project, 'main.ts'), CONSUMER);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'out', skipLibCheck: false,
          // A Node consumer has @types/node; the repository's copy saves a download.
          typeRoots: [join(root, 'node_modules/@types')], types: ['node'] },
        files: ['main.ts'],
      }),
    );
    run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
    expect(run(process.execPath, ['out/main.js'], project).trim().split('\n')).toEqual([
      '200 {"hello":"ada"} yes',
      '404 application/problem+json Accept',
      'exports: 9 packages',
    ]);
  });
});
