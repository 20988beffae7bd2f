import type { Route } from '../route/route.js';

/**
 * A route as the compiled matcher checks it once its path matched: everything precomputed
 * (method and scheme sets, host expression, slash flags) so a check is a few lookups.
 */
export interface Candidate {
  readonly route: Route;
  /** Position in the collection: the order routes are tried in. */
  readonly index: number;
  /** Upper-case allowed methods, `null` for any. */
  readonly methods: ReadonlySet<string> | null;
  readonly methodList: readonly string[];
  /** The route may answer GET, so a slash mismatch redirects instead of skipping it. */
  readonly acceptsGet: boolean;
  readonly schemes: ReadonlySet<string> | null;
  readonly schemeList: readonly string[];
  readonly hostRegex: RegExp | null;
  readonly hostVariables: readonly string[];
  readonly hasTrailingSlash: boolean;
  readonly hasTrailingVar: boolean;
  /** Path parameter names in capture order. */
  readonly pathVariables: readonly string[];
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly hasDefaults: boolean;
  /** The route's own `^core/?$` expression. */
  readonly regex: RegExp;
  /**
   * Builds the params of a static or tree match from the parameter offsets: defaults, then each
   * segment. Compiled per route into an object literal of fixed shape (fast to create, and the
   * objects of one route share a hidden class), with a plain loop as fallback.
   */
  readonly buildParams: ParamsBuilder;
}

export type ParamsBuilder = (path: string, offsets: readonly number[], defaults: Readonly<Record<string, unknown>>) => Record<string, unknown>;

export function candidateOf(route: Route, index: number): Candidate {
  const compiled = route.compiled;
  const methods = route.methods.length === 0 ? null : new Set(route.methods);
  return {
    route,
    index,
    methods,
    methodList: route.methods,
    acceptsGet: methods === null || methods.has('GET'),
    schemes: route.schemes.length === 0 ? null : new Set(route.schemes),
    schemeList: route.schemes,
    hostRegex: compiled.hostRegex,
    hostVariables: compiled.host?.variables ?? [],
    hasTrailingSlash: compiled.hasTrailingSlash,
    hasTrailingVar: compiled.hasTrailingVar,
    pathVariables: compiled.core.variables,
    defaults: route.defaults,
    hasDefaults: Object.keys(route.defaults).length > 0,
    regex: compiled.regex,
    buildParams: paramsBuilder(compiled.core.variables, Object.keys(route.defaults).length > 0),
  };
}

function paramsBuilder(names: readonly string[], hasDefaults: boolean): ParamsBuilder {
  // Names come from route definitions (identifier characters); JSON quoting keeps any of them a
  // plain property key. `__proto__` would set the prototype in a literal: loop for that one.
  const loop: ParamsBuilder = (path, offsets, defaults) => {
    const params: Record<string, unknown> = hasDefaults ? { ...defaults } : {};
    for (let i = 0; i < names.length; i++) params[names[i]!] = path.slice(offsets[i * 2], offsets[i * 2 + 1]);
    return params;
  };
  if (names.length > 16 || names.includes('__proto__')) return loop;
  const fields = names.map((name, i) => `${JSON.stringify(name)}: path.slice(offsets[${i * 2}], offsets[${i * 2 + 1}])`);
  if (hasDefaults) fields.unshift('...defaults');
  try {
    return new Function('path', 'offsets', 'defaults', `return { ${fields.join(', ')} };`) as ParamsBuilder;
  } catch (error) {
    // Code generation disallowed (`--disallow-code-generation-from-strings`): same result, by loop.
    if (error instanceof EvalError) return loop;
    throw error;
  }
}
