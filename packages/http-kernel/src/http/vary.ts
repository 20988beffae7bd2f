import type { HeaderBag } from './header-bag.js';

/**
 * Adds header names to a response's `Vary`, keeping what is there and skipping names already
 * listed (compared case-insensitively), so listeners can each add theirs without duplicates.
 */
export function addVary(headers: HeaderBag, ...names: string[]): void {
  const current = varyOf(headers);
  const seen = new Set(current.map((name) => name.toLowerCase()));
  if (seen.has('*')) return;
  const added = names.filter((name) => {
    const key = name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (added.length > 0) headers.set('vary', [...current, ...added].join(', '));
}

/** The names listed in `Vary`, all values split on commas. */
export function varyOf(headers: HeaderBag): string[] {
  return headers
    .getAll('vary')
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
