/** What `response.cookies.set` takes besides the name and value; the defaults are the safe ones. */
export interface CookieOptions {
  /** Default `true`: scripts cannot read the cookie. */
  httpOnly?: boolean;
  /**
   * Sent over HTTPS only. Left out, it follows the request: `Secure` when the request is secure
   * (HTTPS, or HTTPS at a trusted proxy), not over plain HTTP; the `Set-Cookie` line is written
   * when the kernel prepares the response for its request, before `kernel.response`. Always
   * `Secure` for `__Secure-` and `__Host-` names, `SameSite=None` and `partitioned`, which
   * require it. `true` or `false` decides it whatever the request.
   */
  secure?: boolean;
  /** Default `'lax'`. `'none'` requires `secure`. */
  sameSite?: 'strict' | 'lax' | 'none';
  /** Default `/`. Must start with `/`; `__Host-` cookies must keep `/`. */
  path?: string;
  /** Left out (the default), the cookie goes back to this host only. `__Host-` cookies cannot have one. */
  domain?: string;
  /** Lifetime in seconds; left out, the cookie ends with the browser session. */
  maxAge?: number;
  expires?: Date;
  /** CHIPS: kept per top-level site. Requires `secure`. */
  partitioned?: boolean;
  priority?: 'low' | 'medium' | 'high';
}
