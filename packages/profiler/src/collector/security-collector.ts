import type { Request } from '@switchboard/http-kernel';
import { describeValue } from '../profile/describe-value.js';
import type { CollectContext, DataCollector } from './data-collector.js';

export interface SecurityData {
  /** Name of the firewall that handled the request, or `null` when none did. */
  readonly firewall: string | null;
  /** The authenticated user as the firewall described it, or `null` (anonymous). */
  readonly user: unknown;
  /** Whether the request was handled without session state. */
  readonly stateless: boolean;
  /** Where session state was touched (the security package's `_session_usages`); empty: unused. */
  readonly sessionUsages: readonly string[];
  /**
   * The bearer token an OIDC authenticator looked at (`_security_token`): issuer, `kid` and the
   * issuer's key-set state. Absent for other authenticators. Never the token itself.
   */
  readonly token?: unknown;
}

/**
 * What the security firewall decided, read from the attributes it sets on the request
 * (`_firewall`, `_security_user`, `_stateless`, `_session_usages`). A sub-request (an error page) has its own
 * attributes, so its main request's are used when it has none.
 */
export class SecurityCollector implements DataCollector<SecurityData> {
  readonly name = 'security';

  collect({ recording }: CollectContext): SecurityData {
    const own = recording.request;
    const main = own.requestStack?.getMainRequest() ?? own;
    const source = has(own, '_firewall') || has(own, '_security_user') ? own : main;
    const firewall = read(source, '_firewall');
    const user = read(source, '_security_user');
    const token = read(source, '_security_token');
    return {
      firewall:
        typeof firewall === 'string' ? firewall : firewall === undefined || firewall === null ? null : String(describeValue(firewall)),
      user: user === undefined ? null : describeUser(user),
      stateless: read(own, '_stateless') === true || read(source, '_stateless') === true,
      sessionUsages: [...stringsOf(read(own, '_session_usages')), ...(source === own ? [] : stringsOf(read(main, '_session_usages')))],
      ...(token === undefined ? {} : { token: describeValue(token) }),
    };
  }
}

/** Attribute keys are read as plain strings: the security package declares their types. */
function read(request: Request, key: string): unknown {
  return request.attributes.get(key);
}

function has(request: Request, key: string): boolean {
  return request.attributes.has(key);
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map((item) => String(item)) : [];
}

/** A user object often carries its raw token or claims; show the identifier and roles only. */
function describeUser(user: unknown): unknown {
  if (user === null || typeof user !== 'object') return describeValue(user);
  const record = user as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ['identifier', 'userIdentifier', 'id', 'sub', 'username', 'name', 'email', 'roles']) {
    if (record[key] !== undefined) out[key] = describeValue(record[key]);
  }
  return Object.keys(out).length > 0 ? out : `[${(user as { constructor?: { name?: string } }).constructor?.name ?? 'user'}]`;
}
