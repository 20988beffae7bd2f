/**
 * A startup error about the JWT keys: missing file, wrong passphrase, key and algorithm that do
 * not fit. Its message names the file and the problem, never the passphrase or key material, and
 * it carries no `cause` from OpenSSL so a logger printing the whole error cannot leak either.
 */
export class KeyLoadError extends Error {
  constructor(
    message: string,
    /** The OpenSSL/Node error code when there was one (`ERR_OSSL_BAD_DECRYPT`…), for diagnostics. */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'KeyLoadError';
  }
}
