import type { OpenApiContributor, OperationContribution, SecurityScheme, SharedResponseName } from '@switchboard/openapi';
import { IS_AUTHENTICATED, PUBLIC_ACCESS } from '../authorization/is-granted-rule.js';
import type { FirewallMap } from '../firewall/firewall-map.js';

/** What the document needs of a firewall (a `FirewallMap`'s firewalls fit). */
export interface DocumentedFirewall {
  readonly name: string;
  readonly pattern: RegExp;
  readonly security: boolean;
}

export interface SecurityOpenApiOptions {
  /** The app's firewalls, in matching order: a `FirewallMap` or a list of firewalls. */
  readonly firewalls: Pick<FirewallMap, 'firewalls'> | readonly DocumentedFirewall[];
  /** The scheme of the secured firewalls; default `BEARER_SCHEME`: HTTP bearer, JWT. */
  readonly scheme?: DocumentedScheme;
  /**
   * Schemes a secured operation accepts besides `scheme` (an identity provider's tokens, as an
   * `openIdConnect` or `oauth2` scheme). For these, an operation lists the scopes its `_is_granted`
   * grants as `SCOPE_<scope>` roles, one requirement per scope (any of them will do).
   */
  readonly alternativeSchemes?: readonly DocumentedScheme[];
}

/** A security scheme under its name in the document's `components.securitySchemes`. */
export interface DocumentedScheme {
  readonly name: string;
  readonly definition: SecurityScheme;
}

export const BEARER_SCHEME = {
  name: 'bearerAuth',
  definition: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
} as const satisfies SecurityOpenApiOptions['scheme'];

/**
 * What the firewalls, `_is_granted` and `_same_origin` mean in the OpenAPI document, the way the
 * security listeners decide: on a secured firewall every request needs a token unless the route
 * is `PUBLIC_ACCESS`, and a bad token is refused even there (401); `_is_granted` refuses a user (or
 * the absence of one) that the rule does not grant, and `_same_origin` a cross-site request (403).
 * The firewall is chosen by testing its pattern against the path template (`/api/items/{id}`), so
 * patterns are expected to test prefixes.
 */
export function securityOpenApi(options: SecurityOpenApiOptions): OpenApiContributor {
  const firewalls: readonly DocumentedFirewall[] = 'firewalls' in options.firewalls ? options.firewalls.firewalls : options.firewalls;
  const scheme = options.scheme ?? BEARER_SCHEME;
  const alternatives = options.alternativeSchemes ?? [];
  const securitySchemes: Record<string, SecurityScheme> = { [scheme.name]: scheme.definition };
  for (const alternative of alternatives) securitySchemes[alternative.name] = alternative.definition;
  return {
    securitySchemes,
    describeOperation({ route, pathTemplate }): OperationContribution {
      const isGranted = route.defaults['_is_granted'];
      const firewall = firewalls.find((candidate) =>
        new RegExp(candidate.pattern.source, candidate.pattern.flags.replace(/[gy]/g, '')).test(pathTemplate),
      );
      const secured = firewall?.security === true;
      const isPublic = isGranted === PUBLIC_ACCESS;
      const hasRule = isGranted !== undefined && isGranted !== null;
      const sameOrigin = route.defaults['_same_origin'];
      const forbidden =
        (hasRule && !isPublic && (!secured || isGranted !== IS_AUTHENTICATED)) ||
        (sameOrigin !== undefined && sameOrigin !== null && sameOrigin !== false);
      const responses: SharedResponseName[] = [
        ...(secured ? (['Unauthorized'] as const) : []),
        ...(forbidden ? (['Forbidden'] as const) : []),
      ];
      if (!secured) return { responses };
      const requirements: Array<Record<string, string[]>> = [{ [scheme.name]: [] }];
      for (const alternative of alternatives) {
        const scopes = ['oauth2', 'openIdConnect'].includes(alternative.definition.type) ? scopesOf(isGranted) : [];
        if (scopes.length === 0) requirements.push({ [alternative.name]: [] });
        for (const scope of scopes) requirements.push({ [alternative.name]: [scope] });
      }
      return { responses, security: isPublic ? [{}, ...requirements] : requirements };
    },
  };
}

/** The scopes an `_is_granted` rule grants by role: `SCOPE_items:write` → `items:write`. */
function scopesOf(isGranted: unknown): string[] {
  const roles = typeof isGranted === 'string' ? [isGranted] : Array.isArray(isGranted) ? isGranted : [];
  return roles.filter((role): role is string => typeof role === 'string' && role.startsWith('SCOPE_')).map((role) => role.slice(6));
}
