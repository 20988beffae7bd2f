import { generateKeyPairSync, randomBytes, createPrivateKey } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KeyFiles {
  readonly dir: string;
  readonly privateKeyPath: string;
  readonly publicKeyPath: string;
  readonly passphrase: string;
  /** The base64 lines of the private key, decrypted and as stored: none may ever leave the server. */
  readonly secretFragments: readonly string[];
}

type KeyKind = 'rsa' | 'ec' | 'ed25519';

/** A fresh key pair on disk, the private key PKCS#8 encrypted (AES-256-CBC) with a random passphrase. */
export function generateKeyFiles(kind: KeyKind = 'rsa'): KeyFiles {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-security-'));
  const passphrase = `pw-${randomBytes(18).toString('base64url')}`;
  const pair =
    kind === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : kind === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  const encryptedPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }) as string;
  const publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }) as string;
  const privateKeyPath = join(dir, 'private.pem');
  const publicKeyPath = join(dir, 'public.pem');
  writeFileSync(privateKeyPath, encryptedPem, { mode: 0o600 });
  writeFileSync(publicKeyPath, publicPem);
  const plainPem = createPrivateKey({ key: encryptedPem, format: 'pem', passphrase }).export({ type: 'pkcs8', format: 'pem' }) as string;
  const jwk = pair.privateKey.export({ format: 'jwk' });
  return {
    dir,
    privateKeyPath,
    publicKeyPath,
    passphrase,
    secretFragments: [...pemBodyLines(encryptedPem), ...pemBodyLines(plainPem), ...(typeof jwk.d === 'string' ? [jwk.d] : [])],
  };
}

function pemBodyLines(pem: string): string[] {
  // Every full line of the base64 body; the short last line could match by chance, so it is left out.
  return pem.split('\n').filter((line) => line.length === 64 && !line.startsWith('-----'));
}
