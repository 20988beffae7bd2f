import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@switchboard/http-kernel';

/**
 * The key pair of a development machine, in `<varDir>/jwt/` (git-ignored): created at the first
 * start (an RSA pair, its private key encrypted with `passphrase`, or with a passphrase generated
 * into `jwt/passphrase` when none is given). Returns the directory.
 */
export function ensureDevelopmentKeys(varDir: string, passphrase: string | undefined, logger: Logger): string {
  const jwtDir = join(varDir, 'jwt');
  if (!existsSync(join(jwtDir, 'private.pem')) && createKeyDirectory(varDir, jwtDir, passphrase)) {
    logger.warn({ directory: jwtDir }, 'Generated a JWT key pair for local use (first start).');
  }
  return jwtDir;
}

/** The passphrase generated at the first start, if there is one; the warning names its file, never its value. */
export function generatedPassphrase(jwtDir: string, logger: Logger): string | undefined {
  const file = join(jwtDir, 'passphrase');
  if (!existsSync(file)) return undefined;
  logger.warn(
    { file },
    `JWT_PASSPHRASE is not set: using the passphrase generated in ${file} (git-ignored). Set JWT_PASSPHRASE outside local development.`,
  );
  return readFileSync(file, 'utf8').trim();
}

/**
 * Builds the key directory aside and renames it into place, so hosts starting together (test
 * workers) never see half a directory or mix two key pairs: the first rename wins, the others
 * drop theirs. Returns whether this process created it.
 */
function createKeyDirectory(varDir: string, jwtDir: string, envPassphrase: string | undefined): boolean {
  mkdirSync(varDir, { recursive: true });
  const staging = mkdtempSync(join(varDir, '.jwt-'));
  try {
    const passphrase = envPassphrase ?? randomBytes(32).toString('base64url');
    if (envPassphrase === undefined) writeFileSync(join(staging, 'passphrase'), passphrase, { mode: 0o600 });
    const pair = generateKeyPairSync('rsa', { modulusLength: 3072 });
    writeFileSync(
      join(staging, 'private.pem'),
      pair.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }),
      { mode: 0o600 },
    );
    writeFileSync(join(staging, 'public.pem'), pair.publicKey.export({ type: 'spki', format: 'pem' }));
    renameSync(staging, jwtDir);
    return true;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    throw error;
  }
}
