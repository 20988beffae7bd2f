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
/** Packages checked, in dependency order. */
const packages = ['http-kernel'];

const work = mkdtempSync(join(tmpdir(), 'switchboard-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
}

describe('packed packages', () => {
  it('install into a fresh project and import with types', () => {
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

    writeFileSync(
      join(project, 'main.ts'),
      [
        "import { EventDispatcher, HttpKernel, Request, Response, type KernelEventMap, type ResponseEvent } from '@switchboard/http-kernel';",
        'const dispatcher = new EventDispatcher<KernelEventMap>();',
        "dispatcher.on('kernel.response', (event: ResponseEvent) => { event.response.headers.set('x-packed', 'yes'); });",
        'const kernel = new HttpKernel({ dispatcher });',
        "const request = Request.fromUrl('http://localhost/');",
        "request.attributes.set('_controller', () => new Response('packed ok'));",
        'const response = await kernel.handle(request);',
        "const status: number = response.status;",
        "console.log(status, response.body, response.headers.get('x-packed'));",
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'out', skipLibCheck: false, types: [] },
        files: ['main.ts'],
      }),
    );
    run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
    expect(run(process.execPath, ['out/main.js'], project).trim()).toBe('200 packed ok yes');
  });
});
