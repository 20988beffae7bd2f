import { parseQualityList } from './quality-list.js';

/** A language range of `Accept-Language` with its weight. */
export interface LanguagePreference {
  /** Lower-cased, `_` read as `-`; `*` for any. */
  readonly range: string;
  readonly quality: number;
}

/** Letters, then subtags of letters and digits (BCP 47 shape, loosely); `_` accepted as `-`. */
const LANGUAGE_RANGE = /^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/;

/**
 * Parses `Accept-Language` into ranges, most preferred first (equal weights keep header order).
 * Malformed entries and `q=0` are dropped.
 */
export function parseAcceptLanguage(header: string): LanguagePreference[] {
  const preferences: LanguagePreference[] = [];
  for (const item of parseQualityList(header)) {
    const range = normaliseLocale(item.value);
    if (LANGUAGE_RANGE.test(range) && item.quality > 0) preferences.push({ range, quality: item.quality });
  }
  return preferences.sort((a, b) => b.quality - a.quality);
}

/**
 * The available locale the client prefers, or `null` when it accepts none of them.
 * For each range in order of preference: an exact match, then the range shortened one subtag at
 * a time (`de-CH` → `de`), each also matching a more specific locale (`fr` → `fr-FR`).
 * `*` matches nothing in particular, leaving the choice to the default. Returns the configured spelling.
 */
export function negotiateLocale(header: string | undefined, available: readonly string[]): string | null {
  if (header === undefined || available.length === 0) return null;
  const normalised = available.map(normaliseLocale);
  for (const { range } of parseAcceptLanguage(header)) {
    if (range === '*') continue;
    for (let candidate = range; candidate !== ''; candidate = candidate.slice(0, Math.max(0, candidate.lastIndexOf('-')))) {
      const exact = normalised.indexOf(candidate);
      if (exact >= 0) return available[exact]!;
      const wider = normalised.findIndex((locale) => locale.startsWith(`${candidate}-`));
      if (wider >= 0) return available[wider]!;
    }
  }
  return null;
}

/** `fr_FR` and `FR-fr` both read as `fr-fr`, for comparing locales. */
export function normaliseLocale(locale: string): string {
  return locale.trim().toLowerCase().replaceAll('_', '-');
}
