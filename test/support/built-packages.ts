import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');

/**
 * Vitest global setup: builds every package and the example host to their `dist/` before any
 * test runs. Test files import the TypeScript sources, but the processes they start run what a
 * user deploys: `node dist/main.js` for the host (`pnpm start:prod`), the packages' built
 * JavaScript for the password checker and the cluster's workers. A TypeScript loader in each of
 * those processes cost seconds of CPU per start. Incremental: what has not changed since the
 * last build is not compiled again.
 */
export default function builtPackages(): void {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json', 'examples/api-host/tsconfig.build.json'],
    { cwd: root, stdio: 'inherit' },
  );
}
