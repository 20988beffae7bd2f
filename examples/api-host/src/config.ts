import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TrustedHosts } from '@switchboard/node-adapter';

/** TLS files of the server (paths); the passphrase decrypts an encrypted key and is never logged. */
export interface TlsConfig {
  keyFile: string;
  certFile: string;
  passphrase?: string;
}

/** The example host's configuration: a JSON file, then environment variables over it. */
export interface AppConfig {
  /** Env `PORT`, file `port`. Default 8000. */
  port: number;
  /** Env `APP_HOST`, file `host`. Default `127.0.0.1` (this machine only). */
  host: string;
  /**
   * Env `APP_BASE_URL`, file `baseUrl`: the public origin (`https://v2.api.example.com`) used for
   * every absolute URL (error messages, redirects, profiler links). Default: from each request.
   */
  baseUrl: string | null;
  /** Env `APP_DEBUG` (`1`/`0`, `true`/`false`), file `debug`. Default true: the example host is a development server first (README). */
  debug: boolean;
  /** Env `TLS_KEY_FILE` + `TLS_CERT_FILE` (+ `TLS_PASSPHRASE`), file `tls`. Enables HTTPS and HTTP/2. */
  tls: TlsConfig | null;
  /** Env `TRUSTED_PROXIES` (comma-separated), file `trustedProxies`: whose X-Forwarded-* to believe. */
  trustedProxies: string[];
  /**
   * Env `TRUSTED_HOSTS` (comma-separated), file `trustedHosts`: the host names the service answers
   * for (`api.example.com`, `*.example.com`, addresses); any other `Host` gets 400. Default: the
   * host of `baseUrl` when it is set, else `localhost`, `127.0.0.1` and `[::1]`.
   */
  trustedHosts: string[];
  /** The environment, for wirings that read their own variables (`DATABASE_URL`, `JWT_*`…). */
  env: NodeJS.ProcessEnv;
}

/** The keys the JSON file may hold; anything else is a typo worth stopping for. */
const FILE_KEYS = new Set(['port', 'host', 'baseUrl', 'debug', 'tls', 'trustedProxies', 'trustedHosts']);
/** This example's folder (`examples/api-host`): relative configured paths are read from here. */
export const HOST_ROOT = resolve(import.meta.dirname, '..');
/** The hosts a development server answers for: this machine's names for itself. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
/** Read when it exists and `API_HOST_CONFIG` names no other file. */
export const DEFAULT_CONFIG_FILE = resolve(HOST_ROOT, 'config/api-host.json');

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Builds the configuration: defaults, then the JSON file (`API_HOST_CONFIG` or the default path), then env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const explicitFile = nonEmpty(env['API_HOST_CONFIG']);
  const file = explicitFile ?? DEFAULT_CONFIG_FILE;
  const fromFile = explicitFile !== undefined || existsSync(file) ? readConfigFile(file) : {};

  const tlsFile = fromFile['tls'] as Partial<TlsConfig> | undefined;
  const keyFile = nonEmpty(env['TLS_KEY_FILE']) ?? tlsFile?.keyFile;
  const certFile = nonEmpty(env['TLS_CERT_FILE']) ?? tlsFile?.certFile;
  const passphrase = nonEmpty(env['TLS_PASSPHRASE']) ?? tlsFile?.passphrase;
  if ((keyFile === undefined) !== (certFile === undefined)) throw new ConfigError('TLS needs both a key file and a certificate file.');

  const proxies = nonEmpty(env['TRUSTED_PROXIES']);
  const hosts = nonEmpty(env['TRUSTED_HOSTS']);
  const baseUrl = parseBaseUrl(nonEmpty(env['APP_BASE_URL']) ?? fromFile['baseUrl'] ?? null);
  return {
    port: parsePort(nonEmpty(env['PORT']) ?? fromFile['port'] ?? 8000),
    host: stringOf('host', nonEmpty(env['APP_HOST']) ?? fromFile['host'] ?? '127.0.0.1'),
    baseUrl,
    debug: parseBoolean('debug', nonEmpty(env['APP_DEBUG']) ?? fromFile['debug'] ?? true),
    tls:
      keyFile === undefined || certFile === undefined
        ? null
        : {
            keyFile: resolve(HOST_ROOT, stringOf('tls.keyFile', keyFile)),
            certFile: resolve(HOST_ROOT, stringOf('tls.certFile', certFile)),
            ...(passphrase === undefined ? {} : { passphrase: stringOf('tls.passphrase', passphrase) }),
          },
    trustedProxies: proxies !== undefined ? commaList(proxies) : listOf('trustedProxies', fromFile['trustedProxies'] ?? []),
    trustedHosts: checkedHosts(
      hosts !== undefined
        ? commaList(hosts)
        : fromFile['trustedHosts'] !== undefined
          ? listOf('trustedHosts', fromFile['trustedHosts'])
          : baseUrl !== null
            ? [new URL(baseUrl).hostname]
            : [...LOOPBACK_HOSTS],
    ),
    env,
  };
}

function readConfigFile(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`Cannot read the configuration file ${file}: ${(cause as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`${file} must hold a JSON object.`);
  const unknown = Object.keys(parsed).filter((key) => !FILE_KEYS.has(key) && !key.startsWith('_'));
  if (unknown.length > 0) throw new ConfigError(`${file}: unknown key(s) ${unknown.join(', ')}; known: ${[...FILE_KEYS].join(', ')}.`);
  return parsed as Record<string, unknown>;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** The adapter's own check of each pattern, reported as a configuration error. */
function checkedHosts(patterns: string[]): string[] {
  try {
    new TrustedHosts(patterns);
  } catch (error) {
    throw new ConfigError(`trustedHosts: ${(error as Error).message}`);
  }
  return patterns;
}

function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

function parsePort(value: unknown): number {
  const port = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`port must be 0–65535, got ${String(value)}.`);
  return port;
}

function parseBoolean(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const text = String(value).toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(text)) return true;
  if (['0', 'false', 'off', 'no'].includes(text)) return false;
  throw new ConfigError(`${name} must be true or false, got ${String(value)}.`);
}

function parseBaseUrl(value: unknown): string | null {
  if (value === null) return null;
  const text = stringOf('baseUrl', value);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`baseUrl must be an absolute URL such as https://v2.api.example.com, got ${text}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`baseUrl must be http or https, got ${text}.`);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '') {
    throw new ConfigError(`baseUrl must be an origin only (scheme, host, optional port), got ${text}.`);
  }
  return url.origin;
}

function stringOf(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new ConfigError(`${name} must be a string.`);
  return value;
}

function listOf(name: string, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string'))
    throw new ConfigError(`${name} must be a list of strings.`);
  return value;
}
