import { parseQualityList } from '@switchboard/http-kernel/negotiation';
import type { ContentCoding } from './content-coding.js';

/**
 * The coding to answer with for an `Accept-Encoding` header (RFC 9110 §12.5.3): the highest
 * q-value among `offered`, `offered`'s order breaking ties; `*` stands for any coding not named;
 * `q=0` refuses. `null` means identity (no header, nothing acceptable offered).
 */
export function negotiateCoding(header: string | undefined, offered: readonly ContentCoding[]): ContentCoding | null {
  if (header === undefined || header === '') return null;
  const weights = new Map<string, number>();
  // A coding named twice keeps its first weight; one with a malformed weight is dropped.
  for (const { value, quality } of parseQualityList(header)) {
    const name = value.toLowerCase();
    if (!weights.has(name)) weights.set(name, quality);
  }
  const any = weights.get('*');
  let best: ContentCoding | null = null;
  let bestQ = 0;
  for (const coding of offered) {
    const q = weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? any ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}
