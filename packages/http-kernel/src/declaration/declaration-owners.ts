import type { EventSubscriber, EventMap } from '../dispatcher/types.js';
import type { RouteDeclaration } from './route-declaration.js';
import { describeUnresolvable, type UnresolvableArgument } from './unresolvable-arguments.js';

/**
 * What to register for the declarations the Switchboard packages act on: only the text of the
 * refusal, so that it names the listener to add. Apps' own declarations name no hint.
 */
const KNOWN_OWNERS: Readonly<Record<string, string>> = {
  _is_granted: 'IsGrantedListener from @switchboard/security',
  _same_origin: 'SameOriginListener from @switchboard/security',
  _stateless: 'StatelessCheckListener from @switchboard/security',
  _rate_limit: 'RouteRateLimitListener from @switchboard/rate-limit',
  _cache: 'CacheAttributeListener from @switchboard/http-cache',
  _load_shedding: 'PressureListener from @switchboard/operations',
  _locale: 'LocaleListener from @switchboard/http-kernel',
  _formats: 'ViewListener from @switchboard/http-kernel',
  _responses: 'ResponseSchemaListener from @switchboard/openapi',
  payload: 'RequestPayloadValueResolver from @switchboard/payload, with dispatcher.addSubscriber as well as in the ArgumentResolver',
};

/** The kernel itself reads `_controller` (through its controller resolver). */
const KERNEL_OWNED = new Set(['_controller']);

/** The declarations of every registered subscriber that no registered subscriber owns. */
export function unownedDeclarations<M extends EventMap>(subscribers: Iterable<EventSubscriber<M>>): RouteDeclaration[] {
  const ownedDefaults = new Set(KERNEL_OWNED);
  const ownedOptions = new Set<string>();
  const declarations: RouteDeclaration[] = [];
  for (const subscriber of subscribers) {
    const owned = subscriber.getOwnedDeclarations?.();
    for (const name of owned?.routeDefaults ?? []) ownedDefaults.add(name);
    for (const name of owned?.argumentOptions ?? []) ownedOptions.add(name);
    if (subscriber.getRouteDeclarations !== undefined) declarations.push(...subscriber.getRouteDeclarations());
  }
  return declarations.filter((declaration) =>
    declaration.kind === 'route default' ? !ownedDefaults.has(declaration.name) : !ownedOptions.has(declaration.name),
  );
}

/**
 * Thrown before serving when a route declares what no registered listener acts on, or its
 * controller takes an argument nothing gives a value.
 */
export class UnownedDeclarationError extends Error {
  override readonly name = 'UnownedDeclarationError';

  constructor(
    readonly unowned: readonly RouteDeclaration[],
    readonly unresolvable: readonly UnresolvableArgument[] = [],
  ) {
    const parts: string[] = [];
    if (unowned.length > 0) {
      parts.push(
        `${unowned.length} route declaration(s) have no listener to act on them, so they would be silently ignored:`,
        ...unowned.map(describe),
      );
    }
    if (unresolvable.length > 0) {
      parts.push(
        `${unresolvable.length} controller argument(s) have no source, so each request to their route would fail:`,
        ...unresolvable.map(describeUnresolvable),
      );
    }
    super(parts.join('\n'));
  }
}

function describe(declaration: RouteDeclaration): string {
  const what =
    declaration.kind === 'route default'
      ? `route default "${declaration.name}"`
      : `argument "${declaration.argument ?? '?'}" option "${declaration.name}"`;
  const owner = Object.hasOwn(KNOWN_OWNERS, declaration.name) ? KNOWN_OWNERS[declaration.name] : undefined;
  const register = owner === undefined ? 'register the subscriber that owns it (getOwnedDeclarations)' : `register ${owner}`;
  return `  - route "${declaration.route}": ${what}: ${register}.`;
}
