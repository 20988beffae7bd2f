import { parse, type Token } from 'path-to-regexp';
import { assertValidRequirement, defaultRequirement, escapeRegExp, normaliseRequirement, SEPARATORS } from './requirement.js';

/** What a path or host pattern compiles to: its tokens (for generation) and a regex source (for matching). */
export interface CompiledPattern {
  readonly pattern: string;
  readonly tokens: readonly Token[];
  /** Parameter names in the order of their capture groups in `source`. */
  readonly variables: readonly string[];
  /** The requirement each parameter is matched with (given, or the default for its position). */
  readonly requirements: Readonly<Record<string, string>>;
  /** Regex source without anchors; one capture group per variable, nothing else captures. */
  readonly source: string;
  /** The text when the pattern has no parameter and no optional group, else `null`. */
  readonly staticText: string | null;
}

const MAX_NAME_LENGTH = 32;

/**
 * Compiles a path-to-regexp pattern (`/items/:id`, `{/:page}`, `*rest`, `:version.api.example.com`).
 * `delimiter` is `/` for paths and `.` for hosts: a parameter never spans it unless its requirement says so.
 * Throws a plain Error describing the problem; the caller names the route.
 */
export function compilePattern(pattern: string, requirements: Readonly<Record<string, string>>, delimiter: '/' | '.'): CompiledPattern {
  const tokens = parse(pattern).tokens;
  const variables: string[] = [];
  const effective: Record<string, string> = {};

  const compile = (list: readonly Token[], follow: string | null): string => {
    let out = '';
    list.forEach((token, i) => {
      if (token.type === 'text') {
        out += escapeRegExp(token.value);
        return;
      }
      if (token.type === 'group') {
        if (delimiter === '/') refuseBracedName(list, i, follow);
        out += `(?:${compile(token.tokens, firstCharAfter(list, i, follow))})?`;
        return;
      }
      checkName(token.name, variables);
      variables.push(token.name);
      let requirement = requirements[token.name];
      if (requirement === undefined) {
        if (token.type === 'wildcard') requirement = '.+';
        else {
          const next = firstCharAfter(list, i, follow);
          const excluded: string[] = [delimiter];
          if (next !== null && SEPARATORS.includes(next)) excluded.push(next);
          requirement = defaultRequirement(excluded);
        }
      }
      effective[token.name] = requirement;
      out += `(${requirement})`;
    });
    return out;
  };

  const source = compile(tokens, null);
  const staticText = tokens.every((token) => token.type === 'text') ? tokens.map((t) => (t as { value: string }).value).join('') : null;
  return { pattern, tokens, variables, requirements: effective, source, staticText };
}

/** Normalises and validates a requirement map, naming the parameter in errors. */
export function normaliseRequirements(requirements: Readonly<Record<string, string | RegExp>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, requirement] of Object.entries(requirements)) {
    const source = normaliseRequirement(requirement);
    if (source === '') throw new Error(`the requirement for "${name}" cannot be empty.`);
    try {
      assertValidRequirement(source);
    } catch (error) {
      throw new Error(`the requirement for "${name}" is not a valid regular expression: ${(error as Error).message}`);
    }
    out[name] = source;
  }
  return out;
}

/**
 * `/notes/{id}`, as OpenAPI and most API docs write a parameter, is an optional literal group here:
 * it would match `/notes/` and `/notes/id`, never `/notes/42`. A group that is a whole segment of
 * nothing but a name is refused, naming the form that was meant.
 */
function refuseBracedName(list: readonly Token[], index: number, follow: string | null): void {
  const group = list[index] as Extract<Token, { type: 'group' }>;
  const only = group.tokens.length === 1 ? group.tokens[0] : undefined;
  if (only?.type !== 'text' || !/^[A-Za-z_$][\w$]*$/.test(only.value)) return;
  const before = list[index - 1];
  const startsSegment = before?.type === 'text' && before.value.endsWith('/');
  const next = firstCharAfter(list, index, follow);
  if (!startsSegment || (next !== null && next !== '/')) return;
  throw new Error(
    `"{${only.value}}" is an optional piece of literal text, not a parameter: write ":${only.value}" for a parameter, ` +
      `or "{/:${only.value}}" in place of "/{${only.value}}" for an optional one.`,
  );
}

function checkName(name: string, seen: readonly string[]): void {
  if (seen.includes(name)) throw new Error(`parameter "${name}" appears more than once in the pattern.`);
  if (name.length > MAX_NAME_LENGTH) throw new Error(`parameter name "${name}" is longer than ${MAX_NAME_LENGTH} characters.`);
  if (name === '_fragment') throw new Error('"_fragment" is reserved and cannot be a parameter name.');
}

function firstCharAfter(list: readonly Token[], index: number, follow: string | null): string | null {
  const next = list[index + 1];
  if (next === undefined) return follow;
  if (next.type === 'text') return next.value[0] ?? follow;
  if (next.type === 'group') {
    const first = next.tokens[0];
    return first?.type === 'text' ? (first.value[0] ?? null) : null;
  }
  return null;
}
