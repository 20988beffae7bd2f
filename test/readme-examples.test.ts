/**
 * Every package README opens with a runnable example: the first ```ts block of each README,
 * with its type annotations removed, runs with plain node against the built packages
 * (the run's global setup builds them) and must exit 0 on its own; and the README's `npm install`
 * line names every package the example imports. Examples may import sibling packages (a user
 * installs what the example imports), so they run from the example host, which depends on every
 * package. They get `REDIS_URL`: a private redis-server, which profiler-redis's example must reach.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServer } from './kit/services/redis-server.js';

const root = resolve(import.meta.dirname, '..');
const run = promisify(execFile);

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis?.close();
});

const examples = readdirSync(join(root, 'packages'))
  .map((name) => ({ name, readme: join(root, 'packages', name, 'README.md') }))
  .map(({ name, readme }) => {
    const text = existsSync(readme) ? readFileSync(readme, 'utf8') : '';
    return { name, code: /```ts\n([\s\S]*?)```/.exec(text)?.[1], install: /^npm install (.+)$/m.exec(text)?.[1]?.split(' ') ?? [] };
  });

/** The packages a module imports by name, `node:` builtins aside. */
function importedPackages(code: string): string[] {
  const names = [...code.matchAll(/from '((?:@[^/']+\/)?[^/'.][^/']*)/g)].map((match) => match[1]!);
  return [...new Set(names.filter((name) => !name.startsWith('node:')))].sort();
}

/** The example as JavaScript: its type annotations removed, nothing else changed (as tsx would run it). */
function toJavaScript(code: string): string {
  return ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
}

describe('package README examples', () => {
  it('every package has a README with a TypeScript example', () => {
    expect(examples.filter((example) => example.code === undefined).map((example) => example.name)).toEqual([]);
  });

  it('every README says how to install what its example imports', () => {
    const missing = examples.flatMap(({ name, code, install }) =>
      importedPackages(code ?? '')
        .filter((imported) => !install.includes(imported))
        .map((imported) => `${name}: ${imported}`),
    );
    expect(missing).toEqual([]);
    expect(importedPackages(examples.find((example) => example.name === 'payload')?.code ?? '')).toContain('zod');
  });

  for (const { name, code } of examples) {
    if (code === undefined) continue;
    it(`${name}: the README example runs and exits 0`, async () => {
      const host = join(root, 'examples', 'api-host');
      const file = join(host, `.readme-example-${name}-${process.pid}.mjs`);
      writeFileSync(file, toJavaScript(code));
      try {
        const { stdout } = await run(process.execPath, [file], {
          cwd: host,
          // Only a guard against a hang.
          timeout: 100_000,
          env: { ...process.env, REDIS_URL: redis.url },
        });
        expect(stdout.length).toBeGreaterThan(0);
        if (name === 'profiler-redis')
          expect(stdout).toMatch(/^200 x-debug-token: [0-9a-f]{6}\nfound by another process: GET http:\/\/127\.0\.0\.1:8000\/hello\n$/);
        if (name === 'redis-connection') expect(stdout).toBe('visits: 1 2\n');
      } finally {
        rmSync(file, { force: true });
      }
    });
  }
});
