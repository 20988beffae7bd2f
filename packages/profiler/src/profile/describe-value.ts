/** Longest string kept for one value: a profile is for reading, not an archive. */
const MAX_STRING = 2000;
const MAX_ITEMS = 50;
const MAX_DEPTH = 4;

/**
 * Turns any value (request attributes, log contexts) into plain JSON data for a profile: errors
 * become `Name: message`, functions their name, objects a bounded copy. Never throws, never
 * keeps a reference to the original.
 */
export function describeValue(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case 'string':
      return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} characters)` : value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'undefined':
      return null;
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return `function ${value.name || '(anonymous)'}`;
  }
  if (value === null || value === undefined) return null;
  const object = value as object;
  try {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (value instanceof Date) return value.toISOString();
    if (value instanceof URL || value instanceof RegExp) return String(value);
    if (depth >= MAX_DEPTH) return `[${constructorName(object)}]`;
    if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => describeValue(item, depth + 1));
    if (value instanceof Map) return describeEntries(value.entries(), depth, 'Map');
    if (value instanceof Set) return [...value].slice(0, MAX_ITEMS).map((item) => describeValue(item, depth + 1));
    // Instances of classes (a Request, a Logger) are named, not walked into.
    const name = constructorName(object);
    if (name !== 'Object' && name !== '') return `[${name}]`;
    return describeEntries(Object.entries(object), depth, null);
  } catch {
    return '[unreadable value]';
  }
}

function describeEntries(entries: Iterable<[unknown, unknown]>, depth: number, tag: string | null): Record<string, unknown> {
  const described: Array<[string, unknown]> = [];
  for (const [key, item] of entries) {
    if (described.length >= MAX_ITEMS) {
      described.push(['…', 'more entries not shown']);
      break;
    }
    described.push([String(key), describeValue(item, depth + 1)]);
  }
  // fromEntries defines own properties: a key named `__proto__` stays a key.
  const out = Object.fromEntries(described);
  return tag === null ? out : { [`(${tag})`]: out };
}

function constructorName(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' ? name : 'Object';
}
