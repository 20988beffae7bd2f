import type { Token } from 'path-to-regexp';
import { InvalidParameterError, MissingMandatoryParametersError, RouteNotFoundError } from '../error/routing-error.js';
import type { RequestContext } from '../context/request-context.js';
import type { Route } from '../route/route.js';

export interface GenerateOptions {
  /** `scheme://host[:port]` in front of the path. A route whose host or scheme differs from the context's is always absolute. */
  absolute?: boolean;
}

/** Characters Symfony leaves unencoded in generated paths (they are legal in a path segment). */
const KEPT = /%(?:2F|40|3A|3B|2C|3D|2B|21|2A|7C)/gi;

/**
 * Builds URLs from route names: parameters are checked against their requirements and
 * percent-encoded; parameters the route does not use go to the query string (`_fragment` to the
 * fragment); an optional group is written only when a value in it differs from its default.
 */
export class UrlGenerator {
  constructor(private readonly routes: ReadonlyMap<string, Route>) {}

  generate(name: string, params: Readonly<Record<string, unknown>>, context: RequestContext, options: GenerateOptions = {}): string {
    const route = this.routes.get(name);
    if (route === undefined) throw new RouteNotFoundError(name);
    const compiled = route.compiled;
    const missing: string[] = [];
    const writer = new TokenWriter(route, params, missing);
    const path = writer.write(compiled.path.tokens, encodePathText);
    const host = compiled.host === null ? context.host : writer.write(compiled.host.tokens, (text) => text);
    if (missing.length > 0) throw new MissingMandatoryParametersError(name, missing);

    let url = context.baseUrl + safeDotSegments(path);
    const query = queryOf(params, compiled.variables, route.defaults);
    if (query !== '') url += `?${query}`;
    const fragment = params['_fragment'];
    if (fragment !== undefined && fragment !== null) url += `#${encodeURIComponent(String(fragment)).replace(KEPT, decodeURIComponent)}`;

    const scheme = route.schemes.length > 0 && !route.schemes.includes(context.scheme) ? route.schemes[0]! : context.scheme;
    if (options.absolute === true || scheme !== context.scheme || host !== context.host) {
      return context.with({ host }).schemeAndHost(scheme) + url;
    }
    return url;
  }
}

class TokenWriter {
  constructor(
    private readonly route: Route,
    private readonly params: Readonly<Record<string, unknown>>,
    private readonly missing: string[],
  ) {}

  write(tokens: readonly Token[], encodeText: (text: string) => string): string {
    let out = '';
    for (const token of tokens) {
      if (token.type === 'text') out += encodeText(token.value);
      else if (token.type === 'group') {
        if (this.#groupIsWritten(token.tokens)) out += this.write(token.tokens, encodeText);
      } else out += this.#value(token.name, token.type === 'wildcard', encodeText === encodePathText);
    }
    return out;
  }

  #value(name: string, wildcard: boolean, encode: boolean): string {
    const raw = name in this.params ? this.params[name] : this.route.defaults[name];
    if (raw === undefined || raw === null) {
      this.missing.push(name);
      return '';
    }
    // A wildcard may be given as its list of segments.
    const value = wildcard && Array.isArray(raw) ? raw.join('/') : String(raw);
    const requirement = this.route.compiled.path.requirements[name] ?? this.route.compiled.host?.requirements[name] ?? '';
    if (!new RegExp(`^(?:${requirement})$`, 's').test(value)) {
      throw new InvalidParameterError(this.route.name, name, requirement, value);
    }
    if (!encode) return value;
    return wildcard ? value.split('/').map(encodeSegment).join('/') : encodeSegment(value);
  }

  /** Written when every parameter in it has a value and one of them was given and differs from its default. */
  #groupIsWritten(tokens: readonly Token[]): boolean {
    const names = variablesOf(tokens);
    if (names.length === 0) return false;
    let differs = false;
    for (const name of names) {
      const given = name in this.params ? this.params[name] : undefined;
      const fallback = this.route.defaults[name];
      if ((given === undefined || given === null) && (fallback === undefined || fallback === null)) return false;
      if (given !== undefined && given !== null && String(given) !== String(fallback)) differs = true;
    }
    return differs;
  }
}

function variablesOf(tokens: readonly Token[]): string[] {
  return tokens.flatMap((token) => (token.type === 'group' ? variablesOf(token.tokens) : token.type === 'text' ? [] : [token.name]));
}

function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(KEPT, decodeURIComponent);
}

function encodePathText(text: string): string {
  return text.split('/').map(encodeSegment).join('/');
}

/** `.` and `..` segments would be resolved away by clients; Symfony encodes them. */
function safeDotSegments(path: string): string {
  return path.replace(/\/(\.{1,2})(?=\/|$)/g, (_, dots: string) => `/${dots === '.' ? '%2E' : '%2E%2E'}`);
}

function queryOf(
  params: Readonly<Record<string, unknown>>,
  variables: readonly string[],
  defaults: Readonly<Record<string, unknown>>,
): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (key === '_fragment' || variables.includes(key) || value === undefined || value === null) continue;
    if (key in defaults && String(defaults[key]) === String(value)) continue;
    if (typeof value === 'object') continue;
    pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return pairs.join('&');
}
