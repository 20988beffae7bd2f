import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Controller, Request, RequestAttributes, RouteArguments, UntypedController } from '@switchboard/http-kernel';
import type { PathParameterNames, PathParameters } from './path-parameters.js';

/**
 * One route as the compiler knows it: `params`, what its controller receives by name; `input`,
 * what `generate` takes for it. A collection's type is a flat map from route name to this.
 */
export type RouteSignature<Params = unknown, Input = unknown> = {
  readonly params: Params;
  readonly input: Input;
};

/** The map of a collection whose routes the compiler does not know (built without chaining): any name, any values. */
export interface UntypedRoutes {
  readonly [name: string]: RouteSignature<Readonly<Record<string, unknown>>, Readonly<Record<string, unknown>>>;
}

/** The map of a collection with no route yet (and of one built without chaining). */
export type NoRoutes = Record<never, never>;

/** A Standard Schema per path or host parameter: the value is validated (400 when refused) and the controller gets its output. */
export type ParameterSchemas = Readonly<Record<string, StandardSchemaV1>>;

/** Extra values `generate` puts in the query string. */
export type QueryParameters = Readonly<Record<string, unknown>>;

/** The names of a path and a host pattern together; a route without a host pattern has its path's. */
type RouteParameterNames<P extends string, H extends string> = [H] extends [''] ? PathParameters<P> : PathAndHostNames<P, H>;

interface PathAndHostNames<P extends string, H extends string> {
  readonly required: PathParameters<P>['required'] | PathParameters<H>['required'];
  readonly optional: PathParameters<P>['optional'] | PathParameters<H>['optional'];
  readonly wildcard: PathParameters<P>['wildcard'] | PathParameters<H>['wildcard'];
}

/**
 * A parameter's name and resolved type: how a route's schema outputs and defaults are kept in
 * its signature. The map must hold no type written as an object literal (`params`, `defaults`):
 * the checker takes a type that holds one for possibly generic and walks all of it, every route
 * of the map, each time it instantiates something over the map (it did at every `generate`
 * call); a map of names, tuples and resolved types it leaves as it is.
 */
type Entry = [name: string, value: unknown];

/** `[name, output type]` per parameter with a schema. */
type SchemaOutputs<S> = {
  [K in keyof S & string]: [K, S[K] extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S[K]> : string];
}[keyof S & string];

/** `[name, type]` per parameter of `N` with a default in `D`. */
type DefaultValues<D, N extends PathParameterNames> = { [K in keyof D & (N['required'] | N['optional'])]: [K, D[K]] }[keyof D &
  (N['required'] | N['optional'])];

/** The type `Entries` give `K`, else `Otherwise`. */
type ValueOf<Entries extends Entry, K, Otherwise> = [Extract<Entries, [K, unknown]>] extends [never]
  ? Otherwise
  : Extract<Entries, [K, unknown]>[1];

/** The controller's view: a captured value or its schema's output (or the default's type); an optional parameter without default may be `undefined`. */
type ParamsFrom<N extends PathParameterNames, Outputs extends Entry, Defaults extends Entry> = {
  readonly [K in N['required'] | N['optional']]:
    | ValueOf<Outputs, K, string | ValueOf<Defaults, K, never>>
    | (K extends N['required'] | Defaults[0] ? never : undefined);
};

/** What `generate` accepts for a parameter: its schema's output, else text or a number (a wildcard also takes its segments). */
type InputValue<N extends PathParameterNames, Outputs extends Entry, K> = ValueOf<
  Outputs,
  K,
  string | number | (K extends N['wildcard'] ? readonly string[] : never)
>;

/** `generate`'s view: a parameter without a default must be given. */
type InputFrom<N extends PathParameterNames, Outputs extends Entry, Defaults extends Entry> = {
  readonly [K in Exclude<N['required'], Defaults[0]>]: InputValue<N, Outputs, K>;
} & {
  readonly [K in N['optional'] | (N['required'] & Defaults[0])]?: InputValue<N, Outputs, K>;
};

/**
 * A route's entry in the map: its names and resolved types only. `params` and `input` are worked
 * out when first read (by a `generate` call for this route, say), not when the route is added.
 */
type StoredSignature<N extends PathParameterNames, Outputs extends Entry, Defaults extends Entry> = {
  readonly params: ParamsFrom<N, Outputs, Defaults>;
  readonly input: InputFrom<N, Outputs, Defaults>;
};

/**
 * The signature of a route declared with path `P`, host `H`, parameter schemas `S` and defaults
 * `D`. Reached through a conditional type that always holds, so that the type is known by what it
 * stores, not as `SignatureOf` of these arguments (the route's `params` object literal among
 * them): routes with the same names and types share one signature, and the collection types built
 * on it are shared too.
 */
export type SignatureOf<P extends string, H extends string, S, D> = [P] extends [string]
  ? StoredSignature<RouteParameterNames<P, H>, SchemaOutputs<S>, DefaultValues<D, RouteParameterNames<P, H>>>
  : never;

/**
 * The map entry `add` contributes. Its own alias, so that the entry's type arguments are the name
 * and the stored signature only, not the route's options.
 */
export type NamedRoute<Name extends string, Signature> = { readonly [K in Name]: Signature };

/** What every routed request gives a controller by name: the attributes packages declare (`RequestAttributes`), those the router sets, and `request`. */
interface RoutedSources extends RequestAttributes {
  readonly _route: string;
  readonly _route_path: string;
  readonly _route_params: Readonly<Record<string, unknown>>;
  readonly request: Request;
}

/** What a route gives its controller by name: its parameters, its other defaults and the request's sources. */
export type RouteArgumentSources<P extends string, H extends string, S, D> = [P] extends [string]
  ? SignatureOf<P, H, S, D>['params'] & OtherDefaults<D, RouteParameterNames<P, H>> & RoutedSources
  : never;

/** The defaults of `D` that are not parameters of `N`. */
type OtherDefaults<D, N extends PathParameterNames> = {
  readonly [K in keyof D as K extends N['required'] | N['optional'] ? never : K]: D[K];
};

/** A controller a route accepts: a plain function, or a typed one whose needs the route's values satisfy. */
export type RouteController<Sources> = UntypedController | (Controller & RouteArguments<Sources>);

/** The signatures of `Routes` under a name prefix, each with the mount prefix's own parameters. */
export type MountedRoutes<Routes, NamePrefix extends string, Prefix extends string> = NoRoutes extends Routes
  ? UntypedRoutes
  : string extends Prefix
    ? { readonly [K in keyof Routes & string as `${NamePrefix}${K}`]: Routes[K] }
    : PathParameters<Prefix>['required' | 'optional'] extends never
      ? { readonly [K in keyof Routes & string as `${NamePrefix}${K}`]: Routes[K] }
      : { readonly [K in keyof Routes & string as `${NamePrefix}${K}`]: PrefixedSignature<Routes[K], PathParameters<Prefix>> };

/** A mounted route's signature: the prefix's parameters added, worked out when first read. */
type PrefixedSignature<Signature, N extends PathParameterNames> =
  Signature extends RouteSignature<infer Params, infer Input>
    ? RouteSignature<Params & PrefixValues<N, string>, Input & PrefixValues<N, string | number>>
    : never;

type PrefixValues<N extends PathParameterNames, V> = { readonly [K in N['required']]: V } & { readonly [K in N['optional']]?: V };

/** The map `generate` reads: the collection's, or any name with any values when the collection is untyped. */
type KnownRoutes<Routes> = NoRoutes extends Routes ? UntypedRoutes : Routes;

/**
 * The route names `generate` accepts. A plain key set, not a conditional type over the name:
 * `generate` is checked against it once per call, whatever the number of routes.
 */
export type RouteName<Routes> = keyof KnownRoutes<Routes> & string;

/**
 * `generate`'s arguments after the name: the values are required when the route has a parameter
 * without a default. Computed from the one route's signature (`KnownRoutes<Routes>[Name]`), never
 * over the union of all names: a conditional type over the name made the compiler build the
 * arguments of every route at every call, a cost that grew with the square of the route count.
 */
export type GenerateArguments<Routes, Name extends RouteName<Routes>, Options> = ArgumentsOf<KnownRoutes<Routes>[Name], Options>;

type ArgumentsOf<Signature, Options> =
  Signature extends RouteSignature<unknown, infer Input>
    ? Record<never, never> extends Input
      ? [params?: Input & QueryParameters, options?: Options]
      : [params: Input & QueryParameters, options?: Options]
    : never;
