/**
 * How long a response may be used, in seconds, from its `Cache-Control` (and `Age`): `max-age`
 * less the age; `0` for `no-store`/`no-cache`; `null` when the header says nothing (the caller's
 * default applies). `s-maxage` is for shared caches and is not ours to read.
 */
export function freshnessLifetime(cacheControl: string | null, age: string | null): number | null {
  if (cacheControl === null) return null;
  let maxAge: number | null = null;
  for (const directive of cacheControl.split(',')) {
    const [rawName, rawValue] = directive.split('=', 2);
    const name = rawName!.trim().toLowerCase();
    if (name === 'no-store' || name === 'no-cache') return 0;
    if (name === 'max-age' && rawValue !== undefined) {
      const value = rawValue.trim().replace(/^"(.*)"$/, '$1');
      if (/^\d+$/.test(value)) maxAge = Number(value);
    }
  }
  if (maxAge === null) return null;
  const ageSeconds = age !== null && /^\d+$/.test(age.trim()) ? Number(age.trim()) : 0;
  return Math.max(0, maxAge - ageSeconds);
}
