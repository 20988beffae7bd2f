import type { Request } from '@switchboard/http-kernel';
import { describeValue, type CollectContext, type DataCollector } from '@switchboard/profiler/collector';
import '../security-attributes.js';

export interface SecurityData {
  /** Name of the firewall that handled the request, or `null` when none did. */
  readonly firewall: string | null;
  /** The authenticated user as the firewall described it, or `null` (anonymous). */
  readonly user: unknown;
  /** Whether the request was handled without session state. */
  readonly stateless: boolean;
  /** Where session state was touched (`_session_usages`); empty: unused. */
  readonly sessionUsages: readonly string[];
  /**
   * The bearer token an OIDC authenticator looked at (`_security_token`): issuer, `kid` and the
   * issuer's key-set state. Absent for other authenticators. Never the token itself.
   */
  readonly token?: unknown;
}

/**
 * What the firewall decided, from the attributes it sets on the request (`_firewall`,
 * `_security_user`, `_stateless`, `_session_usages`). A sub-request (an error page) has its own
 * attributes, so its main request's are used when it has none.
 */
export class SecurityCollector implements DataCollector<SecurityData> {
  readonly name = 'security';

  collect({ recording }: CollectContext): SecurityData {
    const own = recording.request;
    const main = own.requestStack?.getMainRequest() ?? own;
    const source = own.attributes.has('_firewall') || own.attributes.has('_security_user') ? own : main;
    const firewall: unknown = source.attributes.get('_firewall');
    const user: unknown = source.attributes.get('_security_user');
    const token: unknown = source.attributes.get('_security_token');
    return {
      firewall:
        typeof firewall === 'string' ? firewall : firewall === undefined || firewall === null ? null : String(describeValue(firewall)),
      user: user === undefined ? null : describeUser(user),
      stateless: own.attributes.get('_stateless') === true || source.attributes.get('_stateless') === true,
      sessionUsages: [...usagesOf(own), ...(source === own ? [] : usagesOf(main))],
      ...(token === undefined ? {} : { token: describeValue(token) }),
    };
  }
}

function usagesOf(request: Request): string[] {
  const usages: unknown = request.attributes.get('_session_usages');
  return Array.isArray(usages) ? usages.map((item) => String(item)) : [];
}

/**
 * An application may set its own user object (carrying a raw token or claims); show the
 * identifier and roles only.
 */
function describeUser(user: unknown): unknown {
  if (user === null || typeof user !== 'object') return describeValue(user);
  const record = user as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ['identifier', 'userIdentifier', 'id', 'sub', 'username', 'name', 'email', 'roles']) {
    if (record[key] !== undefined) out[key] = describeValue(record[key]);
  }
  return Object.keys(out).length > 0 ? out : `[${(user as { constructor?: { name?: string } }).constructor?.name ?? 'user'}]`;
}
