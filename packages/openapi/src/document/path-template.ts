import type { Route } from '@switchboard/router';
import type { JsonSchema, OpenApiServer, Parameter } from '../spec/openapi-types.js';

/** A path-to-regexp token, as the router compiles patterns. */
type Token = Route['compiled']['path']['tokens'][number];
type FlatToken = Exclude<Token, { type: 'group' }>;

/** One concrete path of a route: an optional group is either left out or present. */
export interface PathVariant {
  /** OpenAPI path template: `/api/items/{id}`. */
  readonly template: string;
  readonly parameters: Parameter[];
}

/** The JSON Schema of a parameter's route schema (`params`), or `undefined` when it has none. */
export type ParameterSchemaOf = (name: string) => JsonSchema | undefined;

/** An optional group doubles the variants; more than this many is a route no document should expand. */
const MAX_VARIANTS = 16;

/**
 * The OpenAPI path templates of a route. OpenAPI has no optional path segment, so each optional
 * group (`{/:lang}`) gives two paths, every group present first. Path parameters are always
 * required. A parameter with a route schema (`params`) is described by that schema's output
 * (`type: integer, minimum: 1`); any other is a string whose `pattern` is the route's requirement,
 * anchored. Either carries the route's default for the parameter as `default`.
 */
export function pathVariants(route: Route, schemaOf: ParameterSchemaOf = () => undefined): PathVariant[] {
  return expand(route.compiled.path.tokens, route.name).map((tokens) => {
    let template = '';
    const parameters: Parameter[] = [];
    for (const token of tokens) {
      if (token.type === 'text') {
        template += token.value;
        continue;
      }
      template += `{${token.name}}`;
      parameters.push({
        name: token.name,
        in: 'path',
        required: true,
        schema: parameterSchema(route, token.name, token.type === 'wildcard', schemaOf),
      });
    }
    return { template: template === '' ? '/' : template, parameters };
  });
}

function expand(tokens: readonly Token[], routeName: string): FlatToken[][] {
  let variants: FlatToken[][] = [[]];
  for (const token of tokens) {
    if (token.type !== 'group') {
      variants = variants.map((variant) => [...variant, token]);
      continue;
    }
    const inner = expand(token.tokens, routeName);
    variants = variants.flatMap((variant) => [...inner.map((present) => [...variant, ...present]), variant]);
    if (variants.length > MAX_VARIANTS) {
      throw new Error(
        `Route "${routeName}": its optional groups give more than ${MAX_VARIANTS} paths; OpenAPI would need one per combination.`,
      );
    }
  }
  return variants;
}

function parameterSchema(route: Route, name: string, wildcard: boolean, schemaOf: ParameterSchemaOf): JsonSchema {
  const declared = schemaOf(name);
  const schema: Record<string, unknown> = declared === undefined ? { type: 'string' } : { ...declared };
  const requirement = route.requirements[name] ?? (wildcard ? '.+' : undefined);
  if (requirement !== undefined && declared === undefined) schema['pattern'] = `^(?:${requirement})$`;
  const fallback = route.defaults[name];
  if (typeof fallback === 'string' || typeof fallback === 'number') schema['default'] = String(fallback);
  return schema;
}

/**
 * The server of a route with a host pattern: `:version.api.example.com` becomes
 * `https://{version}.api.example.com`, each host parameter a server variable whose default is the
 * route's default for it (else its name) and whose requirement, when it lists plain alternatives,
 * is its `enum`.
 */
export function hostServer(route: Route): OpenApiServer | null {
  const host = route.compiled.host;
  if (host === null) return null;
  const variables: NonNullable<OpenApiServer['variables']> = {};
  let template = '';
  for (const token of expand(host.tokens, route.name)[0]!) {
    if (token.type === 'text') {
      template += token.value;
      continue;
    }
    template += `{${token.name}}`;
    const fallback = route.defaults[token.name];
    const alternatives = plainAlternatives(route.requirements[token.name]);
    const value = typeof fallback === 'string' || typeof fallback === 'number' ? String(fallback) : (alternatives?.[0] ?? token.name);
    variables[token.name] = alternatives === null ? { default: value } : { default: value, enum: alternatives };
  }
  const scheme = route.schemes.length === 1 ? route.schemes[0]! : 'https';
  return Object.keys(variables).length === 0 ? { url: `${scheme}://${template}` } : { url: `${scheme}://${template}`, variables };
}

/** `v1|v2` → `['v1', 'v2']`; anything with regex syntax → `null`. */
function plainAlternatives(requirement: string | undefined): string[] | null {
  if (requirement === undefined || !/^[A-Za-z0-9_-]+(?:\|[A-Za-z0-9_-]+)*$/.test(requirement)) return null;
  return requirement.split('|');
}
