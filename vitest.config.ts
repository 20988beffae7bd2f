import { defineConfig } from 'vitest/config';

// Tests run on the TypeScript sources: the `@switchboard/source` export condition points every
// workspace package at its `src/index.ts`, so no build step stands between an edit and a test.
export default defineConfig({
  resolve: { conditions: ['@switchboard/source'] },
  ssr: { resolve: { conditions: ['@switchboard/source'] } },
  test: {
    include: ['packages/*/{src,test}/**/*.test.ts', 'examples/*/{src,test}/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
