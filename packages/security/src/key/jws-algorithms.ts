import type { KeyObject } from 'node:crypto';
import { KeyLoadError } from './key-load-error.js';

/** Asymmetric JWS algorithms this package signs and verifies with. HMAC is left out on purpose. */
export type JwsAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA';

interface AlgorithmKey {
  /** `KeyObject.asymmetricKeyType` values the algorithm accepts. */
  readonly keyTypes: readonly string[];
  /** Required `namedCurve` for ECDSA. */
  readonly curve?: string;
}

/** One row per algorithm: which keys it works with. Nothing else lists algorithms. */
const ALGORITHMS: Readonly<Record<JwsAlgorithm, AlgorithmKey>> = {
  RS256: { keyTypes: ['rsa'] },
  RS384: { keyTypes: ['rsa'] },
  RS512: { keyTypes: ['rsa'] },
  PS256: { keyTypes: ['rsa', 'rsa-pss'] },
  PS384: { keyTypes: ['rsa', 'rsa-pss'] },
  PS512: { keyTypes: ['rsa', 'rsa-pss'] },
  ES256: { keyTypes: ['ec'], curve: 'prime256v1' },
  ES384: { keyTypes: ['ec'], curve: 'secp384r1' },
  ES512: { keyTypes: ['ec'], curve: 'secp521r1' },
  EdDSA: { keyTypes: ['ed25519'] },
};

export const SUPPORTED_ALGORITHMS = Object.keys(ALGORITHMS) as readonly JwsAlgorithm[];

export function isSupportedAlgorithm(name: string): name is JwsAlgorithm {
  return Object.hasOwn(ALGORITHMS, name);
}

/**
 * Startup check shared by the token issuer (`sign`) and the authenticator (`verify`): a
 * `KeyLoadError` unless `algorithm` is one of ours and `key` can serve it.
 */
export function assertKeyFitsAlgorithm(algorithm: string, key: KeyObject, use: 'sign' | 'verify'): asserts algorithm is JwsAlgorithm {
  if (!isSupportedAlgorithm(algorithm)) {
    throw new KeyLoadError(`JWT algorithm "${algorithm}" is not supported (use RS*, PS*, ES* or EdDSA).`);
  }
  const mismatch = keyMismatch(algorithm, key);
  if (mismatch !== null) {
    const what = use === 'sign' ? 'private key cannot sign' : 'public key cannot verify';
    throw new KeyLoadError(`The JWT ${what} ${algorithm}: ${mismatch}.`);
  }
}

/** Whether `key` can serve `algorithm` (its type and, for ECDSA, its curve): the check a fetched key passes per token. */
export function keyFitsAlgorithm(algorithm: JwsAlgorithm, key: KeyObject): boolean {
  return keyMismatch(algorithm, key) === null;
}

/** Why `key` cannot be used with `algorithm`, or `null` when it can. */
function keyMismatch(algorithm: JwsAlgorithm, key: KeyObject): string | null {
  const wanted = ALGORITHMS[algorithm];
  const type = key.asymmetricKeyType ?? key.type;
  if (!wanted.keyTypes.includes(type)) {
    return `${algorithm} needs a ${wanted.keyTypes.join(' or ')} key, got ${type}`;
  }
  if (wanted.curve !== undefined && key.asymmetricKeyDetails?.namedCurve !== wanted.curve) {
    return `${algorithm} needs curve ${wanted.curve}, got ${key.asymmetricKeyDetails?.namedCurve ?? 'none'}`;
  }
  return null;
}
