/**
 * The packages as a user gets them: built once, packed the way a release packs them (pnpm turns
 * `workspace:` ranges into registry ranges), installed with npm into a fresh project outside the
 * workspace, then type-checked against and run there. One build, one pack and one install serve
 * every check below.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const workspacePackages = readdirSync(join(root, 'packages')).sort();

const work = mkdtempSync(join(tmpdir(), 'switchboard-pack-'));
const project = join(work, 'consumer');
const installed = (name: string): string => join(project, 'node_modules/@switchboard', name);
/** Each package's tarball, by package name. */
const tarballs = new Map<string, string>();

interface Output {
  stdout: string;
  stderr: string;
}

async function run(command: string, args: string[], cwd: string): Promise<Output> {
  try {
    return await promisify(execFile)(command, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  } catch (error) {
    const failed = error as Partial<Output>;
    throw new Error(`${command} ${args.join(' ')} failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}

beforeAll(async () => {
  // The run's global setup (test/support/built-packages.ts) has built every package.
  await run('npx', ['-y', 'pnpm@10.34.8', '-r', '--filter', './packages/*', 'pack', '--pack-destination', work], root);
  for (const file of readdirSync(work)) {
    const name = /^switchboard-(.+)-\d+\.\d+\.\d+\.tgz$/.exec(file)?.[1];
    if (name !== undefined) tarballs.set(`@switchboard/${name}`, join(work, file));
  }
  expect([...tarballs.keys()].sort()).toEqual(workspacePackages.map((name) => `@switchboard/${name}`));
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The third-party dependencies come from npm's cache when it has them. Vitest (the workspace's
  // version) is installed with the tarballs, in one resolution, for the test-client consumer below.
  const vitestVersion = manifestOf(join(root, 'node_modules/vitest')).version;
  // zod (the workspace's version) for the typed-routes fixture's parameter schemas and the docs examples that use it.
  const zodVersion = manifestOf(join(root, 'packages/router/node_modules/zod')).version;
  await run('npm', ['install', ...NPM_FLAGS, ...tarballs.values(), `vitest@${vitestVersion}`, `zod@${zodVersion}`], project);
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A consumer's compiler options: a strict Node project that checks the packages' declarations. */
const NODE_PROJECT = {
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  skipLibCheck: false,
  // A Node project has @types/node (fetch included); the workspace's copy saves a download.
  typeRoots: [join(root, 'node_modules/@types')],
  types: ['node'],
};

const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** The JavaScript blocks of docs/getting-started.md; hello.mjs is the complete program. */
const guideBlocks = [...readFileSync(join(root, 'docs/getting-started.md'), 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map(
  (match) => match[1]!,
);
const guideHello = guideBlocks.find((code) => code.startsWith('// hello.mjs'))!;

/** A consumer's strict NodeNext settings for type-checking test and example files (`.mjs` files they import included). */
const CHECK_ONLY_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2023', 'DOM'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  noEmit: true,
  allowJs: true,
  typeRoots: [join(root, 'node_modules/@types')],
  types: ['node'],
};

/** The docs whose ```ts blocks are type-checked: every page of docs/ and the README. */
const docsWithExamples = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

/**
 * A page's complete TypeScript blocks. A block that continues an earlier one (it uses names it
 * does not declare or import) says so with `<!-- fragment -->` on the line before its fence.
 */
function typeScriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/(<!-- fragment -->\n)?```ts\n([\s\S]*?)```/g)]
    .filter((match) => match[1] === undefined)
    .map((match) => match[2]!);
}

interface Manifest {
  name: string;
  version: string;
  type?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(suffix))
    .map((file) => join(dir, file));
}

/** The packages a module imports by name (`he`, `@switchboard/router`), `node:` builtins aside. */
function importedPackages(code: string): Set<string> {
  const names = new Set<string>();
  for (const [, specifier] of code.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^'.][^']*)'/g)) {
    if (specifier === undefined || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
  }
  return names;
}

describe('packages installed with npm from their release tarballs', () => {
  it('every workspace package is installed, with registry ranges in place of workspace: ones', () => {
    expect(readdirSync(join(project, 'node_modules/@switchboard')).sort()).toEqual(workspacePackages);
    for (const name of workspacePackages) {
      const text = readFileSync(join(installed(name), 'package.json'), 'utf8');
      expect(text, name).not.toContain('workspace:');
      const manifest = JSON.parse(text) as Manifest;
      for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
        if (!dependency.startsWith('@switchboard/')) continue;
        // A caret range: an app upgrading one package shares a single copy of the others.
        expect(range, `${name} -> ${dependency}`).toBe(`^${manifestOf(installed(dependency.slice('@switchboard/'.length))).version}`);
      }
    }
  });

  it('every tarball ships the MIT license its package.json declares', () => {
    const license = readFileSync(join(root, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} Switchboard contributors\n/);
    for (const name of workspacePackages) {
      // pnpm pack falls back on the repository's LICENSE, `npm pack` and `npm publish` do not:
      // each package folder has its own copy.
      expect(readFileSync(join(root, 'packages', name, 'LICENSE'), 'utf8'), `packages/${name}/LICENSE`).toBe(license);
      expect((manifestOf(installed(name)) as Manifest & { license?: string }).license, name).toBe('MIT');
      expect(existsSync(join(installed(name), 'LICENSE')), `${name} ships no LICENSE`).toBe(true);
      expect(readFileSync(join(installed(name), 'LICENSE'), 'utf8'), name).toBe(license);
    }
  });

  it('each package declares every package its shipped code imports, and npm resolved them all to one copy', {
    timeout: 60_000,
  }, async () => {
    const importsOf = new Map<string, string[]>();
    for (const name of workspacePackages) {
      const manifest = manifestOf(installed(name));
      const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
      const imported = new Set(
        filesUnder(join(installed(name), 'dist'), '.js').flatMap((file) => [...importedPackages(readFileSync(file, 'utf8'))]),
      );
      importsOf.set(name, [...imported].sort());
      expect(
        [...imported].filter((dependency) => !declared.has(dependency)),
        name,
      ).toEqual([]);
      // A nested copy would split `instanceof` checks (HttpError, Response) between two kernels.
      expect(existsSync(join(installed(name), 'node_modules')), `${name} has a nested node_modules`).toBe(false);
    }
    expect(importsOf.get('profiler')).toEqual(['@switchboard/error-controller', '@switchboard/http-kernel', '@switchboard/router', 'he']);
    // @redis/client only through the one connection module, a peer dependency there.
    expect(importsOf.get('redis-connection')).toEqual(['@redis/client']);
    expect(importsOf.get('profiler-redis')).toEqual(['@switchboard/profiler', '@switchboard/redis-connection']);
    // The connection only from the `./redis` entry, the profiler only from `./profiler`; both optional peers.
    expect(importsOf.get('rate-limit')).toEqual(['@switchboard/http-kernel', '@switchboard/profiler', '@switchboard/redis-connection']);
    expect(importsOf.get('security')).toEqual(['@switchboard/http-kernel', '@switchboard/profiler', '@switchboard/rate-limit', 'jose']);
    // Exits non-zero on any missing, invalid or extraneous dependency.
    await run('npm', ['ls', '--all', '--offline'], project);
  });

  it('one package installed alone pulls what it declares, and only that, from the other tarballs', { timeout: 60_000 }, async () => {
    // The profiler reaches three other packages. npm's overrides stand in for the registry: any
    // request for a @switchboard package is answered with its tarball.
    const alone = join(work, 'alone');
    mkdirSync(alone);
    const overrides = Object.fromEntries(
      [...tarballs].filter(([name]) => name !== '@switchboard/profiler').map(([name, file]) => [name, `file:${file}`]),
    );
    writeFileSync(
      join(alone, 'package.json'),
      JSON.stringify({
        name: 'alone',
        private: true,
        type: 'module',
        dependencies: { '@switchboard/profiler': `file:${tarballs.get('@switchboard/profiler')}` },
        overrides,
      }),
    );
    await run('npm', ['install', ...NPM_FLAGS], alone);
    expect(readdirSync(join(alone, 'node_modules/@switchboard')).sort()).toEqual(['error-controller', 'http-kernel', 'profiler', 'router']);
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', "console.log(typeof (await import('@switchboard/profiler')).Profiler)"],
      alone,
    );
    expect(stdout.trim()).toBe('function');
  });

  it('a TypeScript program and the guide as hello.ts type-check against the installed packages; the program serves over node:http', {
    timeout: 120_000,
  }, async () => {
    writeFileSync(join(project, 'main.ts'), CONSUMER);
    // The guide's hello.mjs, with the one change it says TypeScript needs.
    writeFileSync(
      join(project, 'hello.ts'),
      `import type { KernelEventMap } from '@switchboard/http-kernel';\n${guideHello.replace('new EventDispatcher()', 'new EventDispatcher<KernelEventMap>()')}`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { ...NODE_PROJECT, outDir: 'out' },
        files: ['main.ts', 'hello.ts'],
      }),
    );
    await run(process.execPath, [tsc, '-p', 'tsconfig.json'], project);
    const { stdout, stderr } = await run(process.execPath, ['out/main.js'], project);
    const [hello, notFound, serverError, bareKernel, debugFrames, ...rest] = stdout.trim().split('\n');
    expect([hello, notFound, serverError, bareKernel, rest]).toEqual([
      '200 {"hello":"ada"} yes',
      '404 application/problem+json Accept',
      '500 application/problem+json',
      '500 text/plain; charset=UTF-8',
      ['loaded: 7'],
    ]);

    // Built without a logger, the error listener and the bare kernel each report their 500 on
    // stderr; the 404 stays quiet, and so does the app given `nullLogger`.
    const records = stderr.split('\n').filter((line) => line.startsWith('['));
    expect(records).toHaveLength(2);
    expect(records[0]).toMatch(/\] request\.CRITICAL: Uncaught Error .*boom in the app with an error listener/);
    expect(records[1]).toMatch(/\] kernel\.CRITICAL: .*boom in the app without an error listener/);
    expect(stderr).toContain('at '); // the stack follows each record
    expect(stderr).not.toContain('must return a "Response"');

    // Debug mode: frames inside installed packages are vendor frames, named by the JavaScript that
    // ships and not mapped to sources (the debug page collapses them; only the app's frames are mapped).
    const frames = JSON.parse(debugFrames!) as string[];
    const packaged = frames.filter((file) => file.includes('/node_modules/@switchboard/'));
    expect(packaged.map((file) => relative(project, file))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^node_modules\/@switchboard\/http-kernel\/dist\/.+\.js$/),
        expect.stringMatching(/^node_modules\/@switchboard\/router\/dist\/.+\.js$/),
      ]),
    );
    expect(packaged.filter((file) => !existsSync(file))).toEqual([]);
  });

  it('every TypeScript block of the docs type-checks in an ES module project, fragments marked as such aside', {
    timeout: 120_000,
  }, async () => {
    const examples = join(project, 'doc-examples');
    mkdirSync(examples);
    const checked: string[] = [];
    for (const doc of docsWithExamples) {
      const text = readFileSync(join(root, doc), 'utf8');
      // A JavaScript block that names its file (`// app.mjs`) is written as that file, for the
      // TypeScript blocks that import it.
      for (const [, name, code] of text.matchAll(/```js\n\/\/ ([\w.-]+\.mjs)\b[^\n]*\n([\s\S]*?)```/g)) {
        writeFileSync(join(examples, name!), code!);
      }
      for (const [index, block] of typeScriptBlocks(text).entries()) {
        const file = `${doc.replaceAll('/', '-').replace(/\.md$/, '')}-${index}.ts`;
        writeFileSync(join(examples, file), block);
        checked.push(file);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['docs-streams-0.ts', 'docs-testing-0.ts']));
    writeFileSync(
      join(examples, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { ...CHECK_ONLY_OPTIONS, skipLibCheck: false },
        files: checked,
      }),
    );
    // The consumer project's package.json says "type": "module", as getting-started.md asks.
    expect(manifestOf(project)).toMatchObject({ type: 'module' });
    await run(process.execPath, [tsc, '-p', join(examples, 'tsconfig.json')], project);
  });

  describe('docs/getting-started.md, as plain JavaScript', () => {
    it('hello.mjs serves over node:http; its 500 is reported on stderr, its 404 is not', { timeout: 30_000 }, async () => {
      writeFileSync(join(project, 'hello.mjs'), guideHello);
      const child = spawn(process.execPath, ['hello.mjs'], { cwd: project, env: { ...process.env, PORT: '0' } });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      try {
        const [line] = (await once(child.stdout.setEncoding('utf8'), 'data')) as [string];
        const base = `http://127.0.0.1:${/port: (\d+)/.exec(line)![1]}`;
        const ok = await fetch(`${base}/hello`);
        const missing = await fetch(`${base}/nope`);
        const failed = await fetch(`${base}/fail`);
        expect([ok.status, await ok.text(), missing.status, failed.status]).toEqual([200, '{"hello":"world"}', 404, 500]);
        expect(await failed.text()).not.toContain('the database is down');
      } finally {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      expect(stderr).toMatch(
        /^\[[^\]]+\] request\.CRITICAL: Uncaught Error .*the database is down.*\nError: the database is down\n(?: {4}at .*\n)+$/,
      );
    });

    it('the fetch-handler snippet runs with the kernel of hello.mjs', { timeout: 30_000 }, async () => {
      const fetchHandler = guideBlocks.find((code) => code.includes('createFetchHandler(kernel)'))!;
      writeFileSync(join(project, 'fetch-handler.mjs'), guideHello.slice(0, guideHello.indexOf('const server')) + fetchHandler);
      const { stdout } = await run(process.execPath, ['fetch-handler.mjs'], project);
      expect(stdout.trim()).toBe('200 {"hello":"world"}');
    });
  });

  it('typed routes: the compiler refuses unknown names, missing and mistyped parameters, and controllers the route cannot serve', {
    timeout: 240_000,
  }, async () => {
    const typed = join(project, 'typed');
    mkdirSync(typed);
    writeFileSync(join(typed, 'routes.ts'), TYPED_ROUTES);
    writeFileSync(
      join(typed, 'tsconfig.json'),
      JSON.stringify({
        // The packages' declarations are checked by the program above; this checks the consumer's lines.
        compilerOptions: { ...NODE_PROJECT, noEmit: true, skipLibCheck: true },
        files: ['routes.ts'],
      }),
    );
    // Every `@ts-expect-error` line must fire (an unused one is itself an error) and every other line compile.
    await run(process.execPath, [tsc, '-p', join(typed, 'tsconfig.json')], project);
    const expected = TYPED_ROUTES.split('\n').filter((line) => line.includes('@ts-expect-error')).length;
    expect(expected).toBe(7);
    // The same file without its directives fails once per directive.
    writeFileSync(join(typed, 'routes.ts'), TYPED_ROUTES.replaceAll('// @ts-expect-error', '//'));
    const refused = await run(process.execPath, [tsc, '-p', join(typed, 'tsconfig.json')], project).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(refused.match(/routes\.ts\(\d+,\d+\): error/g)).toHaveLength(expected);
  });

  it('the installed security package checks passwords in its child process, from plain JavaScript', { timeout: 30_000 }, async () => {
    writeFileSync(
      join(project, 'password-checker.mjs'),
      `import { PasswordHasherProcess, scryptPasswordHasher } from '@switchboard/security';
const checker = new PasswordHasherProcess();
await checker.start(); // awaited, the start keeps this process alive
const stored = await scryptPasswordHasher.hash('correct horse', { N: 1024, r: 8, p: 1 });
console.log(await checker.verify('correct horse', stored), await checker.verify('wrong', stored), checker.pid !== process.pid);
await checker.close();
`,
    );
    const { stdout } = await run(process.execPath, ['password-checker.mjs'], project);
    expect(stdout).toBe('true false true\n');
  });

  it('a route declaration without its listener stops serve() and the test client, naming the route and what to register', {
    timeout: 30_000,
  }, async () => {
    writeFileSync(
      join(project, 'unowned-declarations.mjs'),
      `import { ArgumentResolver, defineController, EventDispatcher, HttpKernel, JsonResponse } from '@switchboard/http-kernel';
import { serve } from '@switchboard/node-adapter';
import { mapPayload, RequestPayloadValueResolver } from '@switchboard/payload';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { IsGrantedListener } from '@switchboard/security';
import { createTestClient } from '@switchboard/testing';

const anything = { '~standard': { version: 1, vendor: 'consumer', validate: (value) => ({ value }) } };
const routes = new RouteCollection()
  .add('notes_delete', '/notes/:id', { methods: 'DELETE', defaults: { _is_granted: 'ROLE_ADMIN' }, controller: () => new JsonResponse(null, 204) })
  .add('notes_list', '/notes', { methods: 'GET', defaults: { _rate_limit: { limit: 10, intervalMs: 60_000 } }, controller: () => new JsonResponse([]) })
  .add('notes_create', '/notes', {
    methods: 'POST',
    controller: defineController([mapPayload('note', { from: 'json', schema: anything })], (note) => new JsonResponse(note, 201)),
  });
const payload = new RequestPayloadValueResolver();

/** A kernel whose dispatcher has the router and \`subscribers\`; the payload resolver is always in the argument resolver. */
function kernelWith(...subscribers) {
  const dispatcher = new EventDispatcher();
  dispatcher.addSubscriber(new RouterListener(new Router(routes)));
  for (const subscriber of subscribers) dispatcher.addSubscriber(subscriber);
  return new HttpKernel({ dispatcher, argumentResolver: new ArgumentResolver([payload]) });
}

try {
  await serve(kernelWith(), { port: 0 });
  console.log('served');
} catch (error) {
  console.log(error.name);
  console.log(error.message);
}
try {
  createTestClient(kernelWith(new IsGrantedListener()));
  console.log('client made');
} catch (error) {
  console.log(error.message);
}
`,
    );
    const { stdout } = await run(process.execPath, ['unowned-declarations.mjs'], project);
    expect(stdout.split('\n')).toEqual([
      'UnownedDeclarationError',
      '3 route declaration(s) have no listener to act on them, so they would be silently ignored:',
      '  - route "notes_delete": route default "_is_granted": register IsGrantedListener from @switchboard/security.',
      '  - route "notes_list": route default "_rate_limit": register RouteRateLimitListener from @switchboard/rate-limit.',
      '  - route "notes_create": argument "note" option "payload": register RequestPayloadValueResolver from @switchboard/payload, ' +
        'with dispatcher.addSubscriber as well as in the ArgumentResolver.',
      '2 route declaration(s) have no listener to act on them, so they would be silently ignored:',
      '  - route "notes_list": route default "_rate_limit": register RouteRateLimitListener from @switchboard/rate-limit.',
      '  - route "notes_create": argument "note" option "payload": register RequestPayloadValueResolver from @switchboard/payload, ' +
        'with dispatcher.addSubscriber as well as in the ArgumentResolver.',
      '',
    ]);
  });

  it('a declaration that cannot be true is refused where it is written, or before the first request, with its message', {
    timeout: 30_000,
  }, async () => {
    writeFileSync(
      join(project, 'impossible-declarations.mjs'),
      `import { CorsListener } from '@switchboard/cors';
import { defineController, EventDispatcher, HttpKernel, JsonResponse } from '@switchboard/http-kernel';
import { Route, RouteCollection, Router, RouterListener } from '@switchboard/router';
import { createTestClient } from '@switchboard/testing';

const show = defineController(['noteId'], (noteId) => new JsonResponse({ noteId }), 'notes.show');
const refusals = [
  () => new Route('notes_show', '/notes/{id}', { controller: show }),
  () => new Route('notes_show', '/notes/:id', { controller: show, requirements: { noteId: '\\\\d+' } }),
  () => new Route('notes_show', '/notes/:noteId', { controller: show, defaults: { format: 'json' } }),
  () => new CorsListener({ allowOrigins: ['https://notes.example/'] }),
  () => {
    const dispatcher = new EventDispatcher();
    dispatcher.addSubscriber(new RouterListener(new Router(new RouteCollection().add(new Route('notes_show', '/notes/:id', { controller: show })))));
    createTestClient(new HttpKernel({ dispatcher }));
  },
];
for (const refused of refusals) {
  try {
    refused();
    console.log('accepted');
  } catch (error) {
    console.log(\`\${error.name}: \${error.message}\`);
  }
}
`,
    );
    const { stdout } = await run(process.execPath, ['impossible-declarations.mjs'], project);
    expect(stdout.split('\n')).toEqual([
      'RouteDefinitionError: Route "notes_show": "{id}" is an optional piece of literal text, not a parameter: write ":id" for a parameter, ' +
        'or "{/:id}" in place of "/{id}" for an optional one. (path "/notes/{id}")',
      'RouteDefinitionError: Route "notes_show": the requirement for "noteId" names no parameter (the route\'s parameters: id). (path "/notes/:id")',
      'RouteDefinitionError: Route "notes_show": the default "format" names neither a parameter nor an argument of the controller ' +
        '(the route\'s parameters: noteId; the controller\'s arguments: noteId); a value for listeners is a default named with a leading "_". ' +
        '(path "/notes/:noteId")',
      'TypeError: CORS: allowed origin "https://notes.example/" is not an origin (scheme, host and port only, no path or trailing slash): ' +
        'write "https://notes.example".',
      'UnownedDeclarationError: 1 controller argument(s) have no source, so each request to their route would fail:',
      '  - route "notes_show" (path "/notes/:id", parameters: id): argument "noteId" of controller "notes.show" is neither a route parameter ' +
        'nor resolvable: name it after a parameter, give it a default value, or register the resolver or listener that provides it.',
      '',
    ]);
  });

  it('the installed switchboard-openapi command writes the OpenAPI document of a consumer app', { timeout: 60_000 }, async () => {
    // A schema library of its own: any Standard Schema with Standard JSON Schema converts.
    writeFileSync(
      join(project, 'openapi-app.mjs'),
      `import { defineController, JsonResponse } from '@switchboard/http-kernel';
import { defineResponses } from '@switchboard/openapi';
import { mapPayload } from '@switchboard/payload';
import { RouteCollection } from '@switchboard/router';

const objectSchema = (properties, required) => ({
  '~standard': {
    version: 1,
    vendor: 'consumer',
    validate: (value) => ({ value }),
    jsonSchema: { input: () => ({ type: 'object', properties, required }), output: () => ({ type: 'object', properties, required }) },
  },
});
const Greeting = objectSchema({ hello: { type: 'string' } }, ['hello']);
const routes = new RouteCollection().add('greet', '/greet/:name', {
  methods: 'POST',
  controller: defineController(['name', mapPayload('options', { from: 'json', schema: objectSchema({ loud: { type: 'boolean' } }, []) })], (name) => new JsonResponse({ hello: name })),
  requirements: { name: '[a-z]+' },
  defaults: { _responses: defineResponses({ 200: Greeting }) },
});
export default { routes, info: { title: 'Consumer', version: '1.0.0' } };
`,
    );
    const { stdout } = await run(join(project, 'node_modules/.bin/switchboard-openapi'), ['openapi-app.mjs'], project);
    const document = JSON.parse(stdout) as { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>> };
    const operation = document.paths['/greet/{name}']?.['post'];
    expect(document.openapi).toBe('3.1.0');
    expect(operation?.['operationId']).toBe('greet');
    expect(operation?.['parameters']).toEqual([
      { name: 'name', in: 'path', required: true, schema: { type: 'string', pattern: '^(?:[a-z]+)$' } },
    ]);
    expect(operation?.['requestBody']).toMatchObject({
      content: { 'application/json': { schema: { properties: { loud: { type: 'boolean' } } } } },
    });
    expect(Object.keys(operation?.['responses'] as object)).toEqual(['200', '400', '404', '405', '413', '415', '422']);
  });

  it('an app tested with @switchboard/testing and its vitest matchers, in JavaScript and TypeScript, with vitest from npm', {
    timeout: 240_000,
  }, async () => {
    const tests = join(project, 'app-tests');
    mkdirSync(tests);
    writeFileSync(join(tests, 'app.mjs'), TESTED_APP);
    writeFileSync(join(tests, 'app.test.mjs'), APP_TEST_JS);
    writeFileSync(join(tests, 'app.test.ts'), APP_TEST_TS);
    writeFileSync(
      join(tests, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: CHECK_ONLY_OPTIONS,
        files: ['app.test.ts'],
      }),
    );
    // The matchers' types come from the subpath import: `toHaveStatus` on vitest's expect type-checks.
    await run(process.execPath, [tsc, '-p', join(tests, 'tsconfig.json')], project);
    const { stdout } = await run(
      process.execPath,
      [join(project, 'node_modules/vitest/vitest.mjs'), 'run', '--root', tests, '--reporter=verbose'],
      project,
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest colours its summary
    const summary = stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(summary).toMatch(/Tests\s+4 passed \(4\)/);
    expect(summary).toContain('app.test.ts > answers the same over a socket');
  });
});

/**
 * Every package imported through its published entry. Three apps: an error listener and no
 * logger; a bare kernel and no logger; debug mode, silenced.
 */
/** A consumer's typed routes: the valid lines compile, each `@ts-expect-error` line is refused. */
const TYPED_ROUTES = `
import { defineController, JsonResponse, type Request } from '@switchboard/http-kernel';
import { RouteCollection, Router } from '@switchboard/router';
import { createTestClient } from '@switchboard/testing';
import { z } from 'zod';

const show = defineController(['id', 'request'], (id: number, request: Request) => new JsonResponse({ id, method: request.method }));
const list = defineController(['page'], (page: string) => new JsonResponse({ page }));
const items = new RouteCollection()
  .add('item_show', '/items/:id', { params: { id: z.coerce.number().int().min(1) }, controller: show })
  .add('item_list', '/items{/page/:page}', { defaults: { page: '1' }, controller: list });
const routes = new RouteCollection().mount('/api', items, { namePrefix: 'api_' }).add('files', '/files/*path');
const router = new Router(routes);

export const valid: string[] = [
  router.generate('api_item_show', { id: 7 }),
  router.generate('api_item_list'),
  router.generate('api_item_list', { page: 2, sort: 'name' }),
  router.generate('files', { path: ['a', 'b'] }),
];

// @ts-expect-error an unknown route name
router.generate('api_item_shw', { id: 7 });
// @ts-expect-error a missing parameter
router.generate('api_item_show', {});
// @ts-expect-error a parameter of the wrong type (the schema's output is a number)
router.generate('api_item_show', { id: 'seven' });

export async function requestByName(kernel: Parameters<typeof createTestClient>[0]): Promise<number> {
  const client = createTestClient(kernel);
  const shown = await client.route(router, 'GET', 'api_item_show', { id: 7 }, { headers: { accept: 'application/json' } });
  // @ts-expect-error the test client checks route names as generate does
  await client.route(router, 'GET', 'api_item_shown', { id: 7 });
  return shown.status;
}

const byTypo = defineController(['ids'], (ids: string) => new JsonResponse({ ids }));
// @ts-expect-error an argument name the route does not provide
new RouteCollection().add('typo', '/things/:id', { controller: byTypo });

const asText = defineController(['id'], (id: string) => new JsonResponse({ id }));
// @ts-expect-error a controller parameter typed differently from its schema's output
new RouteCollection().add('mistyped', '/things/:id', { params: { id: z.coerce.number() }, controller: asText });
// @ts-expect-error without a schema the value is text, not a number
new RouteCollection().add('untyped', '/things/:id', { controller: show });
`;

const CONSUMER = `
import { EventDispatcher, HttpKernel, JsonResponse, defineController, nullLogger, type KernelEventMap, type Logger, type ResponseEvent } from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { ErrorListener, type ErrorListenerOptions } from '@switchboard/error-controller';
import { serve } from '@switchboard/node-adapter';
import { CorsListener } from '@switchboard/cors';
import { FirewallListener } from '@switchboard/security';
import { RequestPayloadValueResolver } from '@switchboard/payload';
import { CacheAttributeListener } from '@switchboard/http-cache';
import { Profiler } from '@switchboard/profiler';
import { RedisProfilerStorage } from '@switchboard/profiler-redis';
import { RequestIdListener } from '@switchboard/operations';

async function start(label: string, errors?: ErrorListenerOptions, logger?: Logger) {
  const routes = new RouteCollection()
    .add('hello', '/hello/:name', { methods: ['GET'], controller: defineController(['name'], (name: string) => new JsonResponse({ hello: name })) })
    .add('boom', '/boom', { methods: ['GET'], controller: defineController([], () => { throw new Error('boom in the app ' + label); }) })
    .add('broken', '/broken', { methods: ['GET'], controller: defineController([], () => undefined) });
  const dispatcher = new EventDispatcher<KernelEventMap>();
  // In debug mode the router's 404 carries its stack, as the error page's trace shows it.
  dispatcher.addSubscriber(new RouterListener(new Router(routes), { debug: errors?.debug ?? false }));
  if (errors) dispatcher.addSubscriber(new ErrorListener(errors));
  dispatcher.on('kernel.response', (event: ResponseEvent) => { event.response.headers.set('x-packed', 'yes'); });
  return serve(new HttpKernel(logger ? { dispatcher, logger } : { dispatcher }), { port: 0, handleSignals: false });
}
const json = { accept: 'application/json' };

const app = await start('with an error listener', { debug: false });
const hello = await fetch(new URL('/hello/ada', app.url));
console.log(hello.status, await hello.text(), hello.headers.get('x-packed'));
const missing = await fetch(new URL('/nope', app.url), { headers: json });
console.log(missing.status, missing.headers.get('content-type'), missing.headers.get('vary'));
const failed = await fetch(new URL('/boom', app.url), { headers: json });
console.log(failed.status, failed.headers.get('content-type'));
await app.close();

const bare = await start('without an error listener');
const bareFailed = await fetch(new URL('/boom', bare.url));
console.log(bareFailed.status, bareFailed.headers.get('content-type'));
await bare.close();

const debug = await start('in debug mode', { debug: true, logger: nullLogger }, nullLogger);
const files = new Set<string>();
for (const path of ['/broken', '/nope']) {
  const problem = (await (await fetch(new URL(path, debug.url), { headers: json })).json()) as { trace: { file: string | null }[] };
  for (const frame of problem.trace) if (frame.file !== null) files.add(frame.file);
}
console.log(JSON.stringify([...files]));
await debug.close();

const others = [CorsListener, FirewallListener, RequestPayloadValueResolver, CacheAttributeListener, Profiler, RedisProfilerStorage, RequestIdListener];
console.log('loaded:', others.filter((value) => typeof value === 'function').length);
`;

/** An app as a user's fork of it would export it: the kernel built without listening. */
const TESTED_APP = `
import { ErrorListener } from '@switchboard/error-controller';
import { EventDispatcher, HttpKernel, JsonResponse } from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';

export function createKernel() {
  const dispatcher = new EventDispatcher();
  const routes = new RouteCollection()
    .add('hello', '/hello', { methods: 'GET', controller: () => new JsonResponse({ hello: 'world' }) })
    .add('create', '/items', { methods: 'POST', controller: async (request) => new JsonResponse(JSON.parse(await request.body.text()), 201) });
  dispatcher.addSubscriber(new RouterListener(new Router(routes)));
  dispatcher.addSubscriber(new ErrorListener({ debug: false }));
  return new HttpKernel({ dispatcher });
}
`;

const APP_TEST_JS = `
import { expect, it } from 'vitest';
import { createTestClient } from '@switchboard/testing';
import '@switchboard/testing/vitest';
import { createKernel } from './app.mjs';

it('answers in process', async () => {
  const client = createTestClient(createKernel());
  const response = await client.get('/hello');
  expect(response).toHaveStatus(200);
  expect(response).toHaveHeader('content-type', 'application/json');
  expect(response.json()).toEqual({ hello: 'world' });
  expect(await client.get('/hello', { headers: { host: 'bad host' } })).toHaveStatus(400);
  expect(await client.get('/items', { headers: { accept: 'application/json' } })).toMatchProblem({ status: 405 });
});

it('fails with the response in the message', async () => {
  const response = await createTestClient(createKernel()).get('/hello');
  expect(() => expect(response).toHaveStatus(404)).toThrow(/got status 200[\\s\\S]*HTTP 200[\\s\\S]*"hello":"world"/);
});
`;

const APP_TEST_TS = `
import { expect, it } from 'vitest';
import { createTestClient, type TestResponse } from '@switchboard/testing';
import '@switchboard/testing/vitest';
import { createKernel } from './app.mjs';

it('posts JSON and reads it back', async () => {
  const client = createTestClient(createKernel(), { bodyLimit: 64 });
  const created: TestResponse = await client.post('/items', { json: { name: 'desk' } });
  expect(created).toHaveStatus(201);
  expect(created.json<{ name: string }>().name).toBe('desk');
  expect(await client.post('/items', { json: { name: 'x'.repeat(100) }, headers: { accept: 'application/json' } })).toMatchProblem({ status: 413 });
});

it('answers the same over a socket', async () => {
  const client = await createTestClient(createKernel()).socket();
  try {
    expect(await client.get('/hello')).toHaveStatus(200);
  } finally {
    await client.close();
  }
});
`;
