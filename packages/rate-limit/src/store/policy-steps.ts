import type { StoreCheck, StoreOutcome } from './rate-limit-store.js';

/**
 * The state a policy keeps per key, and its arithmetic — used by the memory store; the Redis
 * script (`redis/consume-script.ts`) does the same sums in Lua. Times are milliseconds.
 */
export interface LimitState {
  /** Window start (windows) or time of the last refill (bucket). */
  at: number;
  /** Hits in the current window, or tokens left in the bucket. */
  value: number;
  /** Sliding window only: hits in the previous window. */
  previous: number;
}

/** What a check would do: its outcome, and the state to keep if every check of the step allows. */
export interface Step {
  readonly outcome: StoreOutcome;
  readonly next: LimitState;
}

export function step(check: StoreCheck, state: LimitState | undefined, clockNow: number): Step {
  // A process whose clock reads a little behind the one that wrote the state (or whose check
  // reached the store later) counts at the state's time: an earlier reading never resets a window.
  const now = state !== undefined && clockNow < state.at ? state.at : clockNow;
  switch (check.policy) {
    case 'fixed_window':
      return fixedWindow(check, state, now);
    case 'sliding_window':
      return slidingWindow(check, state, now);
    case 'token_bucket':
      return tokenBucket(check, state, now);
  }
}

function fixedWindow({ limit, intervalMs, cost }: StoreCheck, state: LimitState | undefined, now: number): Step {
  const current = state === undefined || now >= state.at + intervalMs ? { at: now, value: 0, previous: 0 } : state;
  const resetAfter = current.at + intervalMs - now;
  if (current.value + cost > limit) {
    return {
      outcome: { allowed: false, remaining: limit - current.value, resetAfter, retryAfter: cost > limit ? intervalMs : resetAfter },
      next: current,
    };
  }
  const used = current.value + cost;
  return {
    outcome: { allowed: true, remaining: limit - used, resetAfter, retryAfter: 0 },
    next: { at: current.at, value: used, previous: 0 },
  };
}

function slidingWindow({ limit, intervalMs, cost }: StoreCheck, state: LimitState | undefined, now: number): Step {
  let current: LimitState;
  if (state === undefined || now >= state.at + 2 * intervalMs) current = { at: now, value: 0, previous: 0 };
  else if (now >= state.at + intervalMs) current = { at: state.at + intervalMs, value: 0, previous: state.value };
  else current = state;
  const elapsed = now - current.at;
  // Not rounded: a check is allowed exactly when `slidingRetry` says it would be.
  const estimate = (current.previous * (intervalMs - elapsed)) / intervalMs + current.value;
  const resetAfter = current.at + intervalMs - now;
  if (estimate + cost > limit) {
    return {
      outcome: {
        allowed: false,
        remaining: Math.max(0, Math.floor(limit - estimate)),
        resetAfter,
        retryAfter: slidingRetry(current, limit, intervalMs, cost, now),
      },
      next: current,
    };
  }
  const next = { at: current.at, value: current.value + cost, previous: current.previous };
  return { outcome: { allowed: true, remaining: Math.floor(limit - estimate - cost), resetAfter, retryAfter: 0 }, next };
}

/** When the previous window's share has shrunk enough (in this window, or the next one if this one alone is full). */
function slidingRetry(state: LimitState, limit: number, intervalMs: number, cost: number, now: number): number {
  if (cost > limit) return intervalMs;
  if (state.value + cost <= limit && state.previous > 0) {
    const at = state.at + Math.ceil(intervalMs * (1 - (limit - state.value - cost) / state.previous));
    return Math.max(1, at - now);
  }
  const nextWindow = state.at + intervalMs;
  return nextWindow - now + Math.ceil(intervalMs * (1 - (limit - cost) / state.value));
}

function tokenBucket({ limit, intervalMs, cost }: StoreCheck, state: LimitState | undefined, now: number): Step {
  const elapsed = state === undefined ? 0 : Math.max(0, now - state.at);
  const tokens = state === undefined ? limit : Math.min(limit, state.value + (elapsed * limit) / intervalMs);
  const fullAfter = (left: number) => Math.ceil(((limit - left) * intervalMs) / limit);
  if (tokens < cost) {
    const retryAfter = cost > limit ? intervalMs : Math.max(1, Math.ceil(((cost - tokens) * intervalMs) / limit));
    return {
      outcome: { allowed: false, remaining: Math.floor(tokens), resetAfter: fullAfter(tokens), retryAfter },
      next: { at: now, value: tokens, previous: 0 },
    };
  }
  const left = tokens - cost;
  return {
    outcome: { allowed: true, remaining: Math.floor(left), resetAfter: fullAfter(left), retryAfter: 0 },
    next: { at: now, value: left, previous: 0 },
  };
}

/** How long a store must keep a key's state before it says nothing more than a fresh one. */
export function lifetimeOf(check: StoreCheck, state: LimitState, now: number): number {
  switch (check.policy) {
    case 'fixed_window':
      return state.at + check.intervalMs - now;
    case 'sliding_window':
      return state.at + 2 * check.intervalMs - now;
    case 'token_bucket':
      return Math.ceil(((check.limit - state.value) * check.intervalMs) / check.limit);
  }
}
