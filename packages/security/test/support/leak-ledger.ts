/**
 * Everything a test file's run sent out — response status lines, headers, bodies, log records,
 * startup errors — and the secrets that must not be in any of it. Each test file ends with a
 * scan of its ledger (`findLeaks`), so the whole package run is covered file by file.
 *
 * Stored profiles are added by the test host when it closes (`profile <token>` sources).
 */
export class LeakLedger {
  readonly #artifacts: { source: string; text: string }[] = [];
  readonly #secrets = new Set<string>();

  addSecret(secret: string): void {
    if (secret.length < 8) throw new Error('A secret this short would match by chance; use a longer one in tests.');
    this.#secrets.add(secret);
  }

  record(source: string, text: string): void {
    this.#artifacts.push({ source, text });
  }

  /** The distinct kinds of artifact recorded (`response GET /api/me`, `log security`, `profile 1a2b3c`…). */
  sources(): string[] {
    return [...new Set(this.#artifacts.map((artifact) => artifact.source))];
  }

  get size(): number {
    return this.#artifacts.length;
  }

  get secretCount(): number {
    return this.#secrets.size;
  }

  /** `source: secret-prefix…` for every artifact that contains a secret (raw, URL-encoded or JSON-escaped). */
  findLeaks(): string[] {
    const leaks: string[] = [];
    for (const secret of this.#secrets) {
      const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
      for (const { source, text } of this.#artifacts) {
        for (const form of forms) if (text.includes(form)) leaks.push(`${source}: ${secret.slice(0, 6)}…`);
      }
    }
    return leaks;
  }
}
