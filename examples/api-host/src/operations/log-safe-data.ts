import { logSafeText } from '@switchboard/http-kernel/redaction';

/** Deeper than any record the host writes; past it values are kept as they are. */
const MAX_DEPTH = 16;

/**
 * Log data (a record's fields, its bindings) as a log line may show it: every string at any depth
 * through `logSafeText`, keys included, and each error as a copy of the same class whose message,
 * stack, cause and fields are shown the same way (so a serializer still reads its type, message
 * and stack).
 */
export function logSafeData<T>(data: T): T {
  return shownValue(data, 0) as T;
}

function shownValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return logSafeText(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => shownValue(item, depth + 1));
  if (value instanceof Error) return shownError(value, depth);
  const proto: unknown = Object.getPrototypeOf(value);
  // Dates, buffers, maps: no request text in them, and their serializers know them.
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [logSafeText(key), shownValue(item, depth + 1)]));
}

function shownError(error: Error, depth: number): Error {
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  for (const key of Object.getOwnPropertyNames(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key)!;
    const value = 'value' in descriptor ? descriptor.value : (error as unknown as Record<string, unknown>)[key];
    Object.defineProperty(copy, key, {
      value: shownValue(value, depth + 1),
      enumerable: descriptor.enumerable ?? false,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
