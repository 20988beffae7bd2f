import { join } from 'node:path';
import type { Logger } from '@switchboard/http-kernel';
import { KeyLoadError, loadJwtKeys, type JwtKeys } from '@switchboard/security';
import { ConfigError, HOST_ROOT } from '../config.js';
import { ensureDevelopmentKeys, generatedPassphrase } from './development-keys.js';
import { DEMO_USERS_FILE } from './users.js';

export interface SecurityConfig {
  /** Private key PEM (encrypted PKCS#8). Env `JWT_SECRET_KEY`; default `var/jwt/private.pem`, generated at first start. */
  privateKeyPath: string;
  /** Env `JWT_PUBLIC_KEY`; default `var/jwt/public.pem`. */
  publicKeyPath: string;
  /** Env `JWT_PASSPHRASE`; when unset, the one generated at first start in `var/jwt/passphrase` (git-ignored). */
  passphrase: string | undefined;
  /** Env `JWT_TTL`, seconds. Default 900. */
  ttl: number;
  /** Env `SECURITY_USERS_FILE`; default `config/security-users.json`. */
  usersFile: string;
}

/**
 * Reads the security configuration from the environment. With the default key paths, the
 * first start creates `var/jwt/` (key pair, and the passphrase when `JWT_PASSPHRASE` is unset);
 * keys configured elsewhere must exist — never generated behind the operator's back. The
 * passphrase itself is never logged.
 */
export function securityConfigFromEnv(env: NodeJS.ProcessEnv, logger: Logger, varDir = join(HOST_ROOT, 'var')): SecurityConfig {
  const explicitKeys = nonEmpty(env['JWT_SECRET_KEY']) !== undefined || nonEmpty(env['JWT_PUBLIC_KEY']) !== undefined;
  const envPassphrase = nonEmpty(env['JWT_PASSPHRASE']);
  const jwtDir = explicitKeys ? join(varDir, 'jwt') : ensureDevelopmentKeys(varDir, envPassphrase, logger);
  return {
    privateKeyPath: nonEmpty(env['JWT_SECRET_KEY']) ?? join(jwtDir, 'private.pem'),
    publicKeyPath: nonEmpty(env['JWT_PUBLIC_KEY']) ?? join(jwtDir, 'public.pem'),
    passphrase: envPassphrase ?? generatedPassphrase(jwtDir, logger),
    ttl: Number(nonEmpty(env['JWT_TTL']) ?? 900),
    usersFile: nonEmpty(env['SECURITY_USERS_FILE']) ?? DEMO_USERS_FILE,
  };
}

/** The key pair `config` names; a key that cannot be loaded is a `ConfigError` naming the file and the problem, never the passphrase. */
export function loadKeys(config: SecurityConfig): JwtKeys {
  try {
    return loadJwtKeys(config);
  } catch (error) {
    throw error instanceof KeyLoadError ? new ConfigError(error.message) : error;
  }
}

/** Values the profiler must redact wherever they occur (its `secrets` option). */
export function securitySecrets(config: SecurityConfig): string[] {
  return config.passphrase === undefined ? [] : [config.passphrase];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
