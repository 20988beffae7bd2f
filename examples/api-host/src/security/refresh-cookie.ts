import type { Request, Response } from '@switchboard/http-kernel';
import { CookieSealer } from '@switchboard/http-kernel/cookies';
import type { RefreshTokenRef } from './refresh-token-families.js';

/**
 * The refresh cookie: `__Secure-refresh`, sealed (AES-GCM: the client can neither read nor forge
 * it), `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page sends it) and
 * `Path=/api/token`, so it goes to the token routes only. Browsers keep `Secure` cookies of
 * `http://localhost` and `http://127.0.0.1` too, so development over plain HTTP on loopback works.
 */
export class RefreshCookie {
  static readonly NAME = '__Secure-refresh';
  static readonly PATH = '/api/token';
  readonly #sealer: CookieSealer;

  constructor(keys: readonly (string | Uint8Array)[]) {
    this.#sealer = new CookieSealer(keys);
  }

  read(request: Request): RefreshTokenRef | null {
    const opened = this.#sealer.open(RefreshCookie.NAME, request.cookies.get(RefreshCookie.NAME));
    const dot = opened?.indexOf('.') ?? -1;
    if (opened === null || opened === undefined || dot === -1) return null;
    return { family: opened.slice(0, dot), token: opened.slice(dot + 1) };
  }

  write(response: Response, ref: RefreshTokenRef, maxAge: number): void {
    response.cookies.set(RefreshCookie.NAME, this.#sealer.seal(RefreshCookie.NAME, `${ref.family}.${ref.token}`), {
      sameSite: 'strict',
      path: RefreshCookie.PATH,
      maxAge,
    });
  }

  clear(response: Response): void {
    response.cookies.delete(RefreshCookie.NAME, { path: RefreshCookie.PATH });
  }
}
