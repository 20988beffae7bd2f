import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Controller, Request, RequestAttributes, RouteArguments, UntypedController } from '@switchboard/http-kernel';
import type { PathParameterNames, PathParameters } from './path-parameters.js';

/**
 * One route as the compiler knows it: `params`, what its controller receives by name; `input`,
 * what `generate` takes for it. A collection's type is a flat map from route name to this.
 */
export interface RouteSignature<Params = unknown, Input = unknown> {
  readonly params: Params;
  readonly input: Input;
}

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

/** The names of a path and a host pattern together. */
interface RouteParameterNames<P extends string, H extends string> {
  readonly required: PathParameters<P>['required'] | PathParameters<H>['required'];
  readonly optional: PathParameters<P>['optional'] | PathParameters<H>['optional'];
  readonly wildcard: PathParameters<P>['wildcard'] | PathParameters<H>['wildcard'];
}

type Output<S, K> = K extends keyof S ? (S[K] extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S[K]> : string) : string;

/** A captured value (or its schema's output); a parameter without a schema may take its default's type. */
type ParamValue<S, D, K> = K extends keyof S ? Output<S, K> : string | (K extends keyof D ? D[K] : never);

/** What `generate` accepts for a parameter: its schema's output, else text or a number (a wildcard also takes its segments). */
type InputValue<S, K, N extends PathParameterNames> = K extends keyof S
  ? Output<S, K>
  : string | number | (K extends N['wildcard'] ? readonly string[] : never);

/** The controller's view: required and defaulted parameters always have a value; an optional one may be `undefined`. */
type ParamsOf<N extends PathParameterNames, S, D> = {
  readonly [K in N['required'] | N['optional']]: ParamValue<S, D, K> | (K extends N['required'] | keyof D ? never : undefined);
};

/** `generate`'s view: a parameter without a default must be given. */
type InputOf<N extends PathParameterNames, S, D> = {
  readonly [K in Exclude<N['required'], keyof D>]: InputValue<S, K, N>;
} & {
  readonly [K in N['optional'] | (N['required'] & keyof D)]?: InputValue<S, K, N>;
};

/** The signature of a route declared with path `P`, host `H`, parameter schemas `S` and defaults `D`. */
export type SignatureOf<P extends string, H extends string, S, D> = RouteSignature<
  ParamsOf<RouteParameterNames<P, H>, S, D>,
  InputOf<RouteParameterNames<P, H>, S, D>
>;

/** Attributes every routed request has. */
interface RoutedAttributes {
  readonly _route: string;
  readonly _route_path: string;
  readonly _route_params: Record<string, unknown>;
}

/**
 * What a route gives its controller by name: its parameters, its other defaults, the request
 * attributes packages declare (`RequestAttributes`), and `request`.
 */
export type RouteArgumentSources<P extends string, H extends string, S, D> = ParamsOf<RouteParameterNames<P, H>, S, D> & {
  readonly [K in keyof D as K extends RouteParameterNames<P, H>['required' | 'optional'] ? never : K]: D[K];
} & RoutedAttributes &
  RequestAttributes & { readonly request: Request };

/** A controller a route accepts: a plain function, or a typed one whose needs the route's values satisfy. */
export type RouteController<Sources> = UntypedController | (Controller & RouteArguments<Sources>);

/** The signatures of `Routes` under a name prefix, each with the mount prefix's own parameters. */
export type MountedRoutes<Routes, NamePrefix extends string, Prefix extends string> = NoRoutes extends Routes
  ? UntypedRoutes
  : {
      readonly [K in keyof Routes & string as `${NamePrefix}${K}`]: Routes[K] extends RouteSignature<infer Params, infer Input>
        ? PathParameters<Prefix>['required'] extends never
          ? Routes[K]
          : RouteSignature<Params & PrefixValues<Prefix, string>, Input & PrefixValues<Prefix, string | number>>
        : never;
    };

type PrefixValues<Prefix extends string, V> = { readonly [K in PathParameters<Prefix>['required']]: V } & {
  readonly [K in PathParameters<Prefix>['optional']]?: V;
};

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
