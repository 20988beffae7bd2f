import type { SecurityScheme } from '../document/openapi-types.js';

/** What the document needs of a firewall (a `FirewallMap`'s firewalls fit). */
export interface DocumentedFirewall {
  readonly name: string;
  readonly pattern: RegExp;
  readonly security: boolean;
}

export interface OpenApiSecurityOptions {
  /** The app's firewalls, in matching order: a `FirewallMap` or its `firewalls`. */
  firewalls: { readonly firewalls: readonly DocumentedFirewall[] } | readonly DocumentedFirewall[];
  /** The scheme of the secured firewalls; default `bearerAuth`: HTTP bearer, JWT. */
  scheme?: DocumentedScheme;
  /**
   * Schemes a secured operation accepts besides `scheme` (an identity provider's tokens, as an
   * `openIdConnect` or `oauth2` scheme). For these, an operation lists the scopes its `_is_granted`
   * grants as `SCOPE_<scope>` roles, one requirement per scope (any of them will do).
   */
  alternativeSchemes?: readonly DocumentedScheme[];
}

export interface DocumentedScheme {
  readonly name: string;
  readonly definition: SecurityScheme;
}

export const BEARER_SCHEME = {
  name: 'bearerAuth',
  definition: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
} as const satisfies OpenApiSecurityOptions['scheme'];

/** The authorization rules `_is_granted` takes that are not roles (the security package's constants). */
const PUBLIC_ACCESS = 'PUBLIC_ACCESS';
const IS_AUTHENTICATED = 'IS_AUTHENTICATED';

/** How one route is guarded, as the document states it. */
export interface RouteAccess {
  /** The operation's `security`; `undefined` when no secured firewall handles the path. */
  readonly security: Array<Record<string, string[]>> | undefined;
  /** The firewall may refuse the credentials (401). */
  readonly unauthorized: boolean;
  /** `_is_granted` may refuse the user (403). */
  readonly forbidden: boolean;
}

/**
 * Reads a route's guard from the firewall its path selects and its `_is_granted` default, the way
 * the security listeners decide: on a secured firewall every request needs a token unless the
 * route is `PUBLIC_ACCESS`, and a bad token is refused even there; `_is_granted` refuses a user
 * (or the absence of one) that the rule does not grant. The firewall is chosen by testing its
 * pattern against the path template (`/api/items/{id}`), so patterns are expected to test prefixes.
 */
export function routeAccess(pathTemplate: string, isGranted: unknown, options: OpenApiSecurityOptions | undefined): RouteAccess {
  const firewalls =
    options === undefined
      ? []
      : Array.isArray(options.firewalls)
        ? options.firewalls
        : (options.firewalls as { firewalls: readonly DocumentedFirewall[] }).firewalls;
  const firewall = firewalls.find((candidate) =>
    new RegExp(candidate.pattern.source, candidate.pattern.flags.replace(/[gy]/g, '')).test(pathTemplate),
  );
  const secured = firewall?.security === true;
  const isPublic = isGranted === PUBLIC_ACCESS;
  const hasRule = isGranted !== undefined && isGranted !== null;
  const forbidden = hasRule && !isPublic && (!secured || isGranted !== IS_AUTHENTICATED);
  if (!secured) return { security: undefined, unauthorized: false, forbidden };
  const requirements: Array<Record<string, string[]>> = [{ [(options!.scheme ?? BEARER_SCHEME).name]: [] }];
  for (const alternative of options!.alternativeSchemes ?? []) {
    const scopes = ['oauth2', 'openIdConnect'].includes(alternative.definition.type) ? scopesOf(isGranted) : [];
    if (scopes.length === 0) requirements.push({ [alternative.name]: [] });
    for (const scope of scopes) requirements.push({ [alternative.name]: [scope] });
  }
  return { security: isPublic ? [{}, ...requirements] : requirements, unauthorized: true, forbidden };
}

/** The scopes an `_is_granted` rule grants by role: `SCOPE_items:write` → `items:write`. */
function scopesOf(isGranted: unknown): string[] {
  const roles = typeof isGranted === 'string' ? [isGranted] : Array.isArray(isGranted) ? isGranted : [];
  return roles.filter((role): role is string => typeof role === 'string' && role.startsWith('SCOPE_')).map((role) => role.slice(6));
}
