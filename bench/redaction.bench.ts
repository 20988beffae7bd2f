/**
 * Credential redaction benchmark: `redactCredentials` (run on every log message, and on every
 * string of a profile in debug mode) over a plain 16 KiB path, 16 and 64 KiB of `Bearer+`
 * (a value refused at its very end, the input that made the former pattern backtrack), and a
 * query with a real token. The former single-pattern redaction runs beside it on the same inputs
 * as the reference, except 64 KiB (about a second a call). Baseline: the plain path.
 * Run: `cd bench && node --import tsx redaction.bench.ts`
 */
import './built-packages.js';
import { Bench } from 'tinybench';
import { redactCredentials } from '@switchboard/http-kernel/redaction';
import { printTable, reportJson } from './report.js';

/** The pattern redaction used before it was made linear: kept here only as the reference. */
const FORMER_BEARER = /\b(Bearer)(\s+|%20|\+)[A-Za-z0-9._~+/-]{8,}=*(?![A-Za-z0-9._~+/="-])/gi;
const formerRedaction = (text: string): string => text.replace(FORMER_BEARER, '$1$2[redacted]');

const hostile = (length: number): string => `/x?a=${'Bearer+'.repeat(Math.floor(length / 7))}=a`;
const PLAIN = `/items/${'a'.repeat(16 * 1024)}`;
const HOSTILE_16K = hostile(16 * 1024);
const HOSTILE_64K = hostile(64 * 1024);
const WITH_TOKEN = '/api/items?auth=Bearer%20opaque-token_1234567890&page=2';

const bench = new Bench({ time: Number(process.env.BENCH_TIME_MS ?? 1000), warmup: true, warmupTime: 300 });
bench
  .add('plain 16 KiB path', () => void redactCredentials(PLAIN))
  .add('16 KiB of Bearer+', () => void redactCredentials(HOSTILE_16K))
  .add('64 KiB of Bearer+', () => void redactCredentials(HOSTILE_64K))
  .add('query with a bearer token', () => void redactCredentials(WITH_TOKEN))
  .add('former pattern: 16 KiB of Bearer+', () => void formerRedaction(HOSTILE_16K))
  .add('former pattern: query with a bearer token', () => void formerRedaction(WITH_TOKEN));
await bench.run();
reportJson('redaction', printTable('Credential redaction', bench, 'plain 16 KiB path'));
