import { spawnSync } from 'node:child_process';

/** One sample line of an exposition: `name{labels} value`. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * Prometheus' own parser and linter on `text`: `promtool check metrics` (installed by
 * scripts/system-deps.sh). Returns what it reported; it exits non-zero on a line Prometheus cannot
 * parse or a lint problem (a counter without `_total`, a missing HELP…), and this throws then.
 */
export function promtoolCheck(text: string): string {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (run.error !== undefined) throw new Error(`promtool could not run (scripts/system-deps.sh installs it): ${run.error.message}`);
  const report = `${run.stdout}${run.stderr}`.trim();
  if (run.status !== 0) throw new Error(`promtool check metrics failed (${run.status}): ${report}`);
  return report;
}

/** The sample lines of an exposition that `promtoolCheck` accepted (comments skipped), with label escapes undone. */
export function samples(text: string): Sample[] {
  const found: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) throw new Error(`Not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name!] = value!.replace(/\\(.)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
    }
    const raw = match[3]!;
    found.push({ name: match[1]!, labels, value: raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw) });
  }
  return found;
}

/** The samples named `name` whose labels include every one of `labels`. */
export function select(all: readonly Sample[], name: string, labels: Readonly<Record<string, string>> = {}): Sample[] {
  return all.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}
