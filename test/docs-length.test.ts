import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/benchmarks.md says, per benchmark, what it measures, how to run it and the current figures;
 * the reasoning behind them is in docs/decisions.md ("Measurements explained"). A length cap
 * keeps it that: a page a reader can take in.
 */
describe('docs/benchmarks.md', () => {
  it('stays within 450 lines', () => {
    const lines = readFileSync(new URL('../docs/benchmarks.md', import.meta.url), 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines.length).toBeLessThanOrEqual(450);
  });

  it('has one "Test suite time" section', () => {
    const text = readFileSync(new URL('../docs/benchmarks.md', import.meta.url), 'utf8');
    expect(text.match(/^## Test suite time$/gm)).toHaveLength(1);
  });
});
