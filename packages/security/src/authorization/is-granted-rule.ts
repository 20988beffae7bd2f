import type { MaybePromise, Request } from '@switchboard/http-kernel';
import { andThen } from '@switchboard/http-kernel/internal';
import type { SecurityUser } from '../user/security-user.js';

/** Anyone, with or without a user; on a secured firewall this is how a route opts out of the token. */
export const PUBLIC_ACCESS = 'PUBLIC_ACCESS';
/** Any authenticated user, whatever the roles. */
export const IS_AUTHENTICATED = 'IS_AUTHENTICATED';

export interface VoterContext {
  readonly user: SecurityUser | null;
  readonly request: Request;
  /** The controller's resolved arguments (the subject a voter may look at). */
  readonly arguments: readonly unknown[];
}

/** Decides from the user, the request and the controller's arguments. */
export type Voter = (context: VoterContext) => boolean | Promise<boolean>;

/**
 * The `_is_granted` route default: `PUBLIC_ACCESS`, `IS_AUTHENTICATED`, a role, several roles
 * (any one of them grants, as Symfony's affirmative strategy), or a voter function.
 */
export type IsGrantedRule = string | readonly string[] | Voter;

/** Synchronous unless the rule is a voter that returns a promise. */
export function isGranted(rule: IsGrantedRule, context: VoterContext): MaybePromise<boolean> {
  if (typeof rule === 'function') return andThen(rule(context), (granted) => granted === true);
  if (rule === PUBLIC_ACCESS) return true;
  if (context.user === null) return false;
  if (rule === IS_AUTHENTICATED) return true;
  const roles = typeof rule === 'string' ? [rule] : rule;
  return roles.some((role) => context.user!.roles.includes(role));
}

/** How a rule reads in an error message or a log line. */
export function describeRule(rule: IsGrantedRule): string {
  if (typeof rule === 'function') return rule.name === '' ? 'voter' : `voter ${rule.name}`;
  return typeof rule === 'string' ? rule : rule.join(', ');
}
