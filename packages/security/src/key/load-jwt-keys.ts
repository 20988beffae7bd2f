import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { KeyLoadError } from './key-load-error.js';

export interface JwtKeyOptions {
  /** PEM file of the signing key (PKCS#8, encrypted or not). Omit on a service that only verifies. */
  privateKeyPath?: string;
  /** PEM file of the verification key (SPKI). Derived from the private key when omitted. */
  publicKeyPath?: string;
  /** Passphrase of an encrypted private key. Comes from configuration, never from code. */
  passphrase?: string;
}

export interface JwtKeys {
  /** `null` when only a public key was configured (verify-only). */
  readonly privateKey: KeyObject | null;
  readonly publicKey: KeyObject;
}

/**
 * Reads the key files and turns them into `KeyObject`s that jose accepts. Node's crypto does the
 * decryption because jose does not read encrypted PKCS#8. Every failure is a `KeyLoadError` that
 * names the file and the problem; none repeats the passphrase or key material.
 */
export function loadJwtKeys(options: JwtKeyOptions): JwtKeys {
  const { privateKeyPath, publicKeyPath } = options;
  if (privateKeyPath === undefined && publicKeyPath === undefined) {
    throw new KeyLoadError('No JWT key configured: set a private key file, a public key file, or both.');
  }
  const privateKey = privateKeyPath === undefined ? null : decryptPrivateKey(privateKeyPath, options.passphrase);
  const publicKey = publicKeyPath === undefined ? createPublicKey(privateKey!) : readPublicKey(publicKeyPath);
  if (privateKey !== null && publicKeyPath !== undefined && !keysMatch(privateKey, publicKey)) {
    throw new KeyLoadError(`The JWT public key ${publicKeyPath} does not match the private key ${privateKeyPath}.`);
  }
  return { privateKey, publicKey };
}

function readKeyFile(path: string, role: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new KeyLoadError(`The JWT ${role} key file ${path} does not exist or is not readable.`, codeOf(error));
  }
}

function decryptPrivateKey(path: string, passphrase: string | undefined): KeyObject {
  const pem = readKeyFile(path, 'private');
  const encrypted = pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----');
  const hasPassphrase = passphrase !== undefined && passphrase !== '';
  if (encrypted && !hasPassphrase) {
    throw new KeyLoadError(`The JWT private key ${path} is encrypted and no passphrase is configured.`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(hasPassphrase ? { key: pem, format: 'pem', passphrase } : { key: pem, format: 'pem' });
  } catch (error) {
    // With a wrong passphrase OpenSSL reports "bad decrypt" or, when the garbage happens to have
    // valid padding, a decoder error; both mean the same thing to the operator.
    const problem = encrypted ? 'wrong passphrase or corrupt key' : 'not a PEM private key';
    throw new KeyLoadError(`Could not decrypt the JWT private key ${path}: ${problem}.`, codeOf(error));
  }
  if (key.type !== 'private') throw new KeyLoadError(`The JWT private key ${path} is not a private key.`);
  return key;
}

function readPublicKey(path: string): KeyObject {
  const pem = readKeyFile(path, 'public');
  if (pem.includes('PRIVATE KEY-----')) {
    // createPublicKey would accept it and derive the public half, leaving a secret where a public file belongs.
    throw new KeyLoadError(`The JWT public key file ${path} holds a private key; give the public key (SPKI PEM).`);
  }
  try {
    return createPublicKey({ key: pem, format: 'pem' });
  } catch (error) {
    throw new KeyLoadError(`Could not read the JWT public key ${path}: not a PEM public key.`, codeOf(error));
  }
}

/** Signs a probe with the private key and checks it with the public one. */
function keysMatch(privateKey: KeyObject, publicKey: KeyObject): boolean {
  if (privateKey.asymmetricKeyType !== publicKey.asymmetricKeyType) return false;
  const digest = privateKey.asymmetricKeyType === 'ed25519' || privateKey.asymmetricKeyType === 'ed448' ? null : 'sha256';
  const probe = Buffer.from('switchboard key pair probe');
  try {
    return verify(digest, probe, publicKey, sign(digest, probe, privateKey));
  } catch {
    return false;
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
