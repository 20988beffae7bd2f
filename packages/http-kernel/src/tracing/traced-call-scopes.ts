import type { BoundCallScopes, TracedCallScope } from './call-scopes.js';
import type { KernelRequestContext, ListenerCallContext } from './tracing-channels.js';

/** The context each kernel channel's scopes receive, by channel name. */
export interface TracedCallContexts {
  'switchboard.kernel.request': KernelRequestContext;
  'switchboard.kernel.listener': ListenerCallContext;
}

export type TracedChannelName = keyof TracedCallContexts;

type Registry = { [N in TracedChannelName]: BoundCallScopes<TracedCallContexts[N]> };

// Process-wide, as the channels are: two copies of the kernel in one process see the same scopes.
const REGISTRY_KEY = Symbol.for('switchboard.kernel.traced-call-scopes');
const holder = globalThis as typeof globalThis & { [REGISTRY_KEY]?: Registry };
const registry: Registry = (holder[REGISTRY_KEY] ??= {
  'switchboard.kernel.request': { scopes: [] },
  'switchboard.kernel.listener': { scopes: [] },
});

/**
 * Makes every traced call of `channel` run inside `scope`, for as long as the channel has
 * subscribers (a call is traced only then). This is what `TracingChannel#bindStore` offers
 * for an `AsyncLocalStorage`, for a subscriber whose context can be entered only by running a
 * callback in it: the OpenTelemetry context API (`context.with`) cannot be a bound store on Node 26,
 * which enters bound stores through `store.withScope()`. Scopes run outside the channel's bound
 * stores and before `start` is published; the scope bound last is the outermost.
 */
export function bindCallScope<N extends TracedChannelName>(channel: N, scope: TracedCallScope<TracedCallContexts[N]>): void {
  const bound: BoundCallScopes<TracedCallContexts[N]> = registry[channel];
  if (!bound.scopes.includes(scope)) bound.scopes = [...bound.scopes, scope];
}

/** Undoes `bindCallScope`; false when `scope` was not bound to `channel`. */
export function unbindCallScope<N extends TracedChannelName>(channel: N, scope: TracedCallScope<TracedCallContexts[N]>): boolean {
  const bound: BoundCallScopes<TracedCallContexts[N]> = registry[channel];
  if (!bound.scopes.includes(scope)) return false;
  bound.scopes = bound.scopes.filter((other) => other !== scope);
  return true;
}

/** The live list of `channel`'s scopes, for the code that runs its traced calls. */
export function boundCallScopes<N extends TracedChannelName>(channel: N): BoundCallScopes<TracedCallContexts[N]> {
  return registry[channel];
}
