/**
 * Runs one traced call inside what a subscriber sets up for it, given the call's context before
 * `start` is published: `(context, call) => otelContext.with(spanContext(context), call)`. It must
 * call `call` once, synchronously, return what `call` returns, and throw only what `call` throws.
 */
export type TracedCallScope<C> = <T>(context: C, call: () => T) => T;

/** The scopes bound to one channel, innermost first; replaced, never changed in place, so a call in progress keeps its list. */
export interface BoundCallScopes<C> {
  scopes: ReadonlyArray<TracedCallScope<C>>;
}

/** `call` inside every scope of `bound`. */
export function inCallScopes<C, T>(bound: BoundCallScopes<C>, context: C, call: () => T): T {
  const scopes = bound.scopes;
  if (scopes.length === 0) return call();
  let run = call;
  for (const scope of scopes) {
    const inner = run;
    run = () => scope(context, inner);
  }
  return run();
}
