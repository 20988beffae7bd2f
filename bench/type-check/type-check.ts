/**
 * Type-check cost of typed routes: the same generated app — routes in collections of 50, mounted
 * into one app, a typed controller per route and a typed URL (or client call) per route — written
 * with Switchboard (`RouteCollection` + `defineController` + `Router.generate`, once without and
 * once with a zod schema per parameter) and with Hono (chained app, `.route()` mounts, `hc`
 * client). Each is checked as `tsc --noEmit` checks it (skipLibCheck, the packages' published
 * `.d.ts`), by check-program.ts in its own process: wall time, the check phase's CPU time,
 * instantiations, types and memory.
 *
 *   pnpm run build && node --import tsx bench/type-check/type-check.ts [250 500 1000]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const bench = resolve(import.meta.dirname, '..');
const checkProgram = join(bench, 'type-check/check-program.ts');
const GROUP = 50;

type Variant = 'switchboard' | 'switchboard+schemas' | 'hono';

function switchboardGroup(schemas: boolean): string {
  const lines = [
    "import { defineController, JsonResponse } from '@switchboard/http-kernel';",
    "import { RouteCollection } from '@switchboard/router';",
    ...(schemas ? ["import { z } from 'zod';"] : []),
  ];
  const type = schemas ? 'number' : 'string';
  for (let i = 0; i < GROUP; i++) {
    lines.push(
      `const c${i} = defineController(['id', 'request'], (id: ${type}, request: Request) => new JsonResponse({ id, m: request.method, n: ${i} }));`,
    );
  }
  lines.push('export const routes = new RouteCollection()');
  for (let i = 0; i < GROUP; i++) {
    const params = schemas ? ` params: { id: z.coerce.number().int().min(1) },` : '';
    lines.push(`  .add('r${i}', '/r${i}/:id', {${params} controller: c${i} })`);
  }
  lines[0] = lines[0]!.replace('JsonResponse }', 'JsonResponse, type Request }');
  return `${lines.join('\n')};\n`;
}

function switchboardApp(groups: number): string {
  const lines = ["import { RouteCollection, Router } from '@switchboard/router';"];
  for (let g = 0; g < groups; g++) lines.push(`import { routes as g${g} } from './g${g}.js';`);
  lines.push('const routes = new RouteCollection()');
  for (let g = 0; g < groups; g++) lines.push(`  .mount('/g${g}', g${g}, { namePrefix: 'g${g}_' })`);
  lines.push(';', 'export const router = new Router(routes);', 'export const urls: string[] = [];');
  for (let g = 0; g < groups; g++)
    for (let i = 0; i < GROUP; i++) lines.push(`urls.push(router.generate('g${g}_r${i}', { id: ${i + 1} }));`);
  return `${lines.join('\n')}\n`;
}

function honoGroup(): string {
  const lines = ["import { Hono } from 'hono';", 'export const routes = new Hono()'];
  for (let i = 0; i < GROUP; i++) lines.push(`  .get('/r${i}/:id', (c) => c.json({ id: c.req.param('id'), m: c.req.method, n: ${i} }))`);
  return `${lines.join('\n')};\n`;
}

function honoApp(groups: number): string {
  const lines = ["import { Hono } from 'hono';", "import { hc } from 'hono/client';"];
  for (let g = 0; g < groups; g++) lines.push(`import { routes as g${g} } from './g${g}.js';`);
  lines.push('const app = new Hono()');
  for (let g = 0; g < groups; g++) lines.push(`  .route('/g${g}', g${g})`);
  lines.push(';', 'const client = hc<typeof app>("http://localhost");', 'export const calls: unknown[] = [];');
  for (let g = 0; g < groups; g++)
    for (let i = 0; i < GROUP; i++) lines.push(`calls.push(client.g${g}.r${i}[':id'].$url({ param: { id: '${i + 1}' } }));`);
  return `${lines.join('\n')}\n`;
}

interface Measure {
  variant: Variant;
  routes: number;
  wallMs: number;
  checkWallMs: number;
  checkCpuMs: number;
  instantiations: number;
  types: number;
  memoryMb: number;
}

function measure(variant: Variant, routes: number): Measure {
  // Inside bench/ so the generated files resolve its dependencies; removed afterwards.
  const dir = mkdtempSync(join(bench, 'type-check/.generated-'));
  try {
    const groups = routes / GROUP;
    const files: string[] = ['app.ts'];
    for (let g = 0; g < groups; g++) {
      writeFileSync(join(dir, `g${g}.ts`), variant === 'hono' ? honoGroup() : switchboardGroup(variant === 'switchboard+schemas'));
      files.push(`g${g}.ts`);
    }
    writeFileSync(join(dir, 'app.ts'), variant === 'hono' ? honoApp(groups) : switchboardApp(groups));
    const compilerOptions = {
      target: 'ES2022',
      lib: ['ES2023', 'DOM'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    const output = execFileSync(process.execPath, ['--import', 'tsx', checkProgram, join(dir, 'tsconfig.json')], {
      encoding: 'utf8',
      timeout: 600_000,
    });
    return { variant, routes, ...(JSON.parse(output) as Omit<Measure, 'variant' | 'routes'>) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function ms(value: number): string {
  return `${value.toFixed(0).padStart(6)} ms`;
}

/** Each variant is checked this many times, the variants in turn; the run with the least check CPU counts. */
const ROUNDS = 2;
const VARIANTS = ['switchboard', 'switchboard+schemas', 'hono'] as const;

const sizes = process.argv.slice(2).map(Number);
mkdirSync(join(bench, 'type-check'), { recursive: true });
for (const routes of sizes.length > 0 ? sizes : [250, 500, 1000]) {
  const best = new Map<Variant, Measure>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of VARIANTS) {
      const result = measure(variant, routes);
      const kept = best.get(variant);
      if (kept === undefined || result.checkCpuMs < kept.checkCpuMs) best.set(variant, result);
    }
  }
  const hono = best.get('hono')!;
  for (const variant of VARIANTS) {
    const result = best.get(variant)!;
    console.log(
      `${variant.padEnd(20)} ${String(routes).padStart(5)} routes  wall ${ms(result.wallMs)}  check ${ms(result.checkWallMs)}  check CPU ${ms(result.checkCpuMs)}  ${String(result.instantiations).padStart(9)} instantiations  ${String(result.types).padStart(7)} types  ${result.memoryMb.toFixed(0)} MB  check CPU ÷ hono ${(result.checkCpuMs / hono.checkCpuMs).toFixed(2)}`,
    );
  }
}
