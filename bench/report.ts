import os from 'node:os';
import type { Bench } from 'tinybench';

export interface ResultRow {
  name: string;
  opsPerSecond: number;
  /** Ratio of this row's mean time to the baseline's (lower is faster). */
  costVsBaseline: number;
}

/** Prints ops/s and cost relative to `baseline` (mean time ÷ baseline mean time), returns the rows. */
export function printTable(title: string, bench: Bench, baseline: string, opsPerIteration = 1): ResultRow[] {
  const meanOf = (name: string): number => {
    const result = bench.tasks.find((task) => task.name === name)?.result as { latency?: { mean: number } } | undefined;
    if (result?.latency === undefined) throw new Error(`${name} has no result`);
    return result.latency.mean;
  };
  const baseMean = meanOf(baseline);
  const rows = bench.tasks.map((task): ResultRow => {
    const mean = meanOf(task.name);
    return { name: task.name, opsPerSecond: (opsPerIteration * 1000) / mean, costVsBaseline: mean / baseMean };
  });
  console.log(`\n## ${title}\n${machineLine()}\n`);
  console.log('| contender | ops/s | cost vs baseline |\n|---|---:|---:|');
  for (const row of rows) {
    console.log(`| ${row.name} | ${Math.round(row.opsPerSecond).toLocaleString('en-US')} | ${row.costVsBaseline.toFixed(2)}× |`);
  }
  return rows;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** When BENCH_JSON is set, appends the rows as one JSON line to that file. */
export function reportJson(subject: string, rows: unknown): void {
  const file = process.env.BENCH_JSON;
  if (!file) return;
  import('node:fs').then((fs) => fs.appendFileSync(file, `${JSON.stringify({ subject, rows, at: new Date().toISOString() })}\n`));
}
