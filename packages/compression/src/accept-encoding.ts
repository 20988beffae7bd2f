import type { ContentCoding } from './content-coding.js';

/**
 * The coding to answer with for an `Accept-Encoding` header (RFC 9110 §12.5.3): the highest
 * q-value among `offered`, `offered`'s order breaking ties; `*` stands for any coding not named;
 * `q=0` refuses. `null` means identity (no header, nothing acceptable offered).
 */
export function negotiateCoding(header: string | undefined, offered: readonly ContentCoding[]): ContentCoding | null {
  if (header === undefined || header === '') return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [token = '', ...parameters] = part.split(';');
    const name = token.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter);
      if (match !== null) q = Math.min(1, Number(match[1]));
      else if (/^\s*q\s*=/i.test(parameter)) q = 0; // A malformed weight is not taken as a yes.
    }
    // A coding named twice keeps its first weight.
    if (!weights.has(name)) weights.set(name, q);
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
