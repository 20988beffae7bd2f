import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('where code generation from strings is disallowed', () => {
  it('matches with the interpreted tree and loop-built params, same answers', () => {
    const script = fileURLToPath(new URL('./support/no-eval-check.ts', import.meta.url));
    const run = spawnSync(
      process.execPath,
      ['--disallow-code-generation-from-strings', '--conditions=@switchboard/source', '--import', 'tsx', script],
      { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8', timeout: 100_000 },
    );
    expect(run.stderr).toBe('');
    const output = JSON.parse(run.stdout) as { blocked: boolean; results: unknown[] };
    expect(output.blocked).toBe(true);
    expect(output.results).toEqual([
      { kind: 'match', route: 'item', params: { format: 'json', id: '7' } },
      { kind: 'match', route: 'file', params: { path: 'a/b' } },
      { kind: 'redirect', route: 'dir', params: {}, path: '/dir/', scheme: null },
      { kind: 'not-found', path: '/nope/' },
    ]);
  });
});
