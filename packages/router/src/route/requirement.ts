/**
 * Route requirements: the regular expression a parameter must match. Normalised as the
 * reference does, so they can be spliced into a bigger expression: anchors stripped, capturing
 * groups made non-capturing (they must not shift the parameters' group numbers).
 */
export function normaliseRequirement(requirement: string | RegExp): string {
  let source = typeof requirement === 'string' ? requirement : requirement.source;
  if (source.startsWith('^')) source = source.slice(1);
  else if (source.startsWith('\\A')) source = source.slice(2);
  if (source.endsWith('$') && !source.endsWith('\\$')) source = source.slice(0, -1);
  else if (source.endsWith('\\z')) source = source.slice(0, -2);
  return withoutCapturingGroups(source);
}

/** Throws the RegExp's own SyntaxError when `source` is not a valid expression. */
export function assertValidRequirement(source: string): void {
  new RegExp(`^(?:${source})$`, 's');
}

function withoutCapturingGroups(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      out += ch + (source[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      out += ch;
      continue;
    }
    if (ch === '(') {
      if (source[i + 1] !== '?') {
        out += '(?:';
        continue;
      }
      // Named group `(?<name>…)` (but not a look-behind `(?<=` / `(?<!`).
      const named = /^\(\?<([A-Za-z_$][\w$]*)>/.exec(source.slice(i));
      if (named !== null) {
        out += '(?:';
        i += named[0].length - 1;
        continue;
      }
    }
    out += ch;
  }
  return out;
}

/** The characters that may end a parameter: a parameter followed by one of them stops before it. */
export const SEPARATORS = '/,;.:-_~+*=@|';

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** A character class matching anything but `excluded`, one or more times. */
export function defaultRequirement(excluded: readonly string[]): string {
  const unique = [...new Set(excluded)];
  return `[^${unique.map((ch) => escapeRegExp(ch)).join('')}]+`;
}
