import { comment } from '../internal/source-comment.js';
import type { MatchResult } from './match-result.js';

/*
 * The answers of exact static paths, found before any walk: a route's match or a 405 that depends
 * on nothing but the method, kept per path and looked up by generated code.
 */

/**
 * The finished results of one exact static path, by method. The common methods each have a field
 * found by string comparisons (pointer compares for the interned method strings servers pass), so
 * a static hit costs no map lookup; other methods some route names are looked up in the full map,
 * and a method no route names gets `#other`.
 */
export class StaticAnswers {
  readonly #get: MatchResult | undefined;
  readonly #head: MatchResult | undefined;
  readonly #post: MatchResult | undefined;
  readonly #put: MatchResult | undefined;
  readonly #delete: MatchResult | undefined;
  readonly #patch: MatchResult | undefined;
  readonly #all: ReadonlyMap<string, MatchResult | undefined>;
  readonly #other: MatchResult | undefined;

  /** `byMethod`: an entry for each method some route names; `other`: the answer for every other method. */
  constructor(byMethod: ReadonlyMap<string, MatchResult | undefined>, other: MatchResult | undefined) {
    const answerOf = (method: string) => (byMethod.has(method) ? byMethod.get(method) : other);
    this.#get = answerOf('GET');
    this.#head = answerOf('HEAD');
    this.#post = answerOf('POST');
    this.#put = answerOf('PUT');
    this.#delete = answerOf('DELETE');
    this.#patch = answerOf('PATCH');
    this.#all = byMethod;
    this.#other = other;
  }

  for(method: string): MatchResult | undefined {
    switch (method) {
      case 'GET':
        return this.#get;
      case 'HEAD':
        return this.#head;
      case 'POST':
        return this.#post;
      case 'PUT':
        return this.#put;
      case 'DELETE':
        return this.#delete;
      case 'PATCH':
        return this.#patch;
      default:
        return this.#all.has(method) ? this.#all.get(method) : this.#other;
    }
  }
}

/** The answers kept for exact static paths: those of `path`, or `undefined` when it is not one of them. */
export type StaticLookup<T> = (path: string) => T | undefined;

/**
 * Emits the lookup of exact static paths: a `switch` on the path's length, then on the character
 * that best tells the paths of that length apart, then one string comparison. A path that is no
 * static route's is mostly turned away by its length or that one character, without reading the
 * rest of it (a map lookup would hash all of it first; docs/decisions.md, R1). Called once
 * `emitMatcher` has succeeded, so code generation from strings is allowed.
 */
export function emitStaticLookup<T>(answers: ReadonlyMap<string, T>): { lookup: StaticLookup<T>; source: string } {
  const lines: string[] = [];
  const constants = new Map<string, T>();
  const line = (indent: number, text: string) => lines.push(`${'  '.repeat(indent)}${text}`);
  const answerFor = (path: string, indent: number) => {
    const name = `s${constants.size}`;
    constants.set(name, answers.get(path)!);
    line(indent, `if (path === ${JSON.stringify(path)}) return ${name};`);
  };
  const byLength = groupBy([...answers.keys()].sort(), (path) => path.length);
  line(0, '// Exact static paths: their length, then the character that tells those of one length apart, then one comparison.');
  line(0, '"use strict";');
  line(0, 'return function staticAnswers(path) {');
  line(1, 'switch (path.length) {');
  for (const [length, paths] of [...byLength].sort(([a], [b]) => a - b)) {
    line(2, `case ${length}:`);
    if (paths.length === 1) {
      answerFor(paths[0]!, 3);
      line(3, 'return undefined;');
      continue;
    }
    const at = tellingPosition(paths);
    line(3, `switch (path.charCodeAt(${at})) {`);
    for (const [code, same] of groupBy(paths, (path) => path.charCodeAt(at))) {
      line(4, `case ${code}: // ${comment(JSON.stringify(same[0]![at]))}`);
      for (const path of same) answerFor(path, 5);
      line(5, 'return undefined;');
    }
    line(3, '}');
    line(3, 'return undefined;');
  }
  line(1, '}');
  line(1, 'return undefined;');
  line(0, '};');
  const source = lines.join('\n');
  const factory = new Function(...constants.keys(), source) as (...values: T[]) => StaticLookup<T>;
  return { lookup: factory(...constants.values()), source };
}

/** The items by key, keys in order of first appearance. */
function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}

/** The offset (after the leading `/`) at which the paths, all of one length, have the most different characters. */
function tellingPosition(paths: readonly string[]): number {
  let best = 1;
  let bestCount = 0;
  for (let at = 1; at < paths[0]!.length; at++) {
    const count = new Set(paths.map((path) => path.charCodeAt(at))).size;
    if (count > bestCount) {
      best = at;
      bestCount = count;
    }
  }
  return best;
}
