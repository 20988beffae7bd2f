/** What `response.cookies.set` takes besides the name and value; the defaults are the safe ones. */
export interface CookieOptions {
  /** Default `true`: scripts cannot read the cookie. */
  httpOnly?: boolean;
  /**
   * Default `true`: sent over HTTPS only. Browsers also keep and send `Secure` cookies of
   * `http://localhost` and loopback addresses (they count as secure contexts), so the default
   * works in development; turn it off only for a plain-HTTP origin you cannot avoid.
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
