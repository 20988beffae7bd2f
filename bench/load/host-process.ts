/**
 * The example host in its own process for the load benchmarks, as `pnpm start` runs it, but on the
 * built packages (`dist/`, what users run): its URL, its log lines, and the CPU time its processes
 * (the primary and, with `WORKERS`, the workers it logged) have used so far.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannonUntyped from 'autocannon';

const hostDir = fileURLToPath(new URL('../../examples/api-host/', import.meta.url));
/** Clock ticks per second of the CPU times in /proc/<pid>/stat. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

export interface BenchHost {
  readonly child: ChildProcess;
  readonly url: string;
  /** Log lines (stderr) that contain `text`. */
  linesWith(text: string): string[];
  /** CPU seconds (user + system) used so far by the host's processes that are still running. */
  cpuSeconds(): number;
  stop(): Promise<number | null>;
}

export async function startBenchHost(env: Record<string, string>): Promise<BenchHost> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: hostDir,
    env: {
      ...process.env,
      PORT: '0',
      APP_HOST: '127.0.0.1',
      API_HOST_CONFIG: '',
      PGLITE_DATA_DIR: 'memory://',
      NODE_ENV: 'production',
      // The load benchmarks log in from this one address to measure the password path, not throttling.
      LOGIN_THROTTLING: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Debug mode logs every 404: only the lines a benchmark asks about are kept.
  const kept: string[] = [];
  let partial = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (/Cluster:|Profiler storage|CRITICAL|ERROR|Configuration error/.test(line)) kept.push(line);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /listening on (\S+)/.exec(output);
      if (match !== null) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`the host exited with ${code} before listening: ${kept.join('\n')}`)));
  });
  const pids = (): number[] => [
    child.pid!,
    ...kept.flatMap((line) => {
      const pid = /Cluster: worker \d+ \(pid (\d+)\) listening/.exec(line)?.[1];
      return pid === undefined ? [] : [Number(pid)];
    }),
  ];
  return {
    child,
    url,
    linesWith: (text) => kept.filter((line) => line.includes(text)),
    cpuSeconds: () => pids().reduce((sum, pid) => sum + processCpuSeconds(pid), 0),
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** utime + stime of `pid` in seconds; 0 once it is gone. */
export function processCpuSeconds(pid: number): number {
  try {
    // Fields after the command name (which is in parentheses and may hold spaces): utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Busy share of the whole machine (all cores, every process) between two readings of /proc/stat. */
export function machineCpuReader(): () => number {
  const read = (): { busy: number; total: number } => {
    const values = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = values.reduce((sum, value) => sum + value, 0);
    const idle = values[3]! + (values[4] ?? 0);
    return { busy: total - idle, total };
  };
  const start = read();
  return () => {
    const end = read();
    return (end.busy - start.busy) / Math.max(1, end.total - start.total);
  };
}

/** The part of autocannon's API used here: a request mix with a check of each response. */
export interface MixEntry {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  onResponse: (status: number, body: string, context: unknown, headers: Record<string, string>) => void;
}
export interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
export const autocannon = autocannonUntyped as unknown as (options: {
  url: string;
  connections: number;
  duration: number;
  requests: MixEntry[];
}) => PromiseLike<LoadResult>;

/** `1 234` style for tables. */
export const thousands = (value: number): string => Math.round(value).toLocaleString('en-US');

/** One JSON request to the host: its status and parsed body (null when it has none). */
export async function apiCall(url: string, method: string, body?: unknown, token?: string): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: await response.json().catch(() => null) };
}

/** A token for one of the example host's demo users (password `<username>-password`). */
export async function login(base: string, username: string): Promise<string> {
  const { status, json } = await apiCall(`${base}/api/token`, 'POST', { username, password: `${username}-password` });
  if (status !== 200) throw new Error(`login of ${username} answered ${status}`);
  return (json as { token: string }).token;
}
