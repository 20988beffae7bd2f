import type { Controller } from '@switchboard/http-kernel';
import { argumentMetadataOf } from '@switchboard/http-kernel/internal';
import { Route, type RouteOptions } from './route.js';
import type {
  MountedRoutes,
  NamedRoute,
  NoRoutes,
  ParameterSchemas,
  RouteArgumentSources,
  RouteController,
  SignatureOf,
} from './route-signature.js';

/**
 * `RouteOptions` as `add` reads them from a literal: the controller must be satisfied by the
 * route's parameters (typed by their schemas), its defaults and the request's attributes.
 */
export interface TypedRouteOptions<P extends string, H extends string, S extends ParameterSchemas, D>
  extends Omit<RouteOptions, 'controller' | 'host' | 'params' | 'defaults'> {
  host?: H | null;
  params?: S;
  defaults?: D;
  controller?: NoInfer<RouteController<RouteArgumentSources<P, H, S, D>>> | string;
}

/** What a mount adds to every route it copies. A route's own values win over these. */
export interface MountOptions {
  /** Prepended to every route name, e.g. `api_`. */
  namePrefix?: string;
  /** Host pattern for routes that have none. */
  host?: string;
  /** Schemes for routes that allow every scheme. */
  schemes?: string | readonly string[];
  /** Methods for routes that allow every method. */
  methods?: string | readonly string[];
  /** Given to the routes that have the parameter. */
  requirements?: Readonly<Record<string, string | RegExp>>;
  /** `_` defaults to every route; the others to the routes that have the parameter or whose controller takes the argument. */
  defaults?: Readonly<Record<string, unknown>>;
}

/**
 * Named routes in declaration order, which is the order they are tried in. Adding a name that
 * exists replaces that route and moves it to the end (as Symfony does).
 */
export class RouteCollection<Routes extends object = NoRoutes> implements Iterable<Route> {
  /** For the compiler only: the route name → signature map `Router.generate` and typed controllers are checked against. */
  declare readonly routeSignatures?: Routes;
  readonly #routes = new Map<string, Route>();

  /**
   * Defines a route; the definition is checked now and an error names the route. Chained calls
   * accumulate the routes' signatures in the collection's type (path parameters read from the
   * literal pattern, typed by `params` schemas).
   */
  add<
    const Name extends string,
    const P extends string,
    const H extends string = '',
    S extends ParameterSchemas = Record<never, never>,
    D extends Readonly<Record<string, unknown>> = Record<never, never>,
  >(name: Name, path: P, options?: TypedRouteOptions<P, H, S, D>): RouteCollection<Routes & NamedRoute<Name, SignatureOf<P, H, S, D>>>;
  add(route: Route): this;
  add(nameOrRoute: string | Route, path?: string, options?: RouteOptions): RouteCollection<Routes> {
    const route = nameOrRoute instanceof Route ? nameOrRoute : new Route(nameOrRoute, path ?? '/', options);
    this.#routes.delete(route.name);
    this.#routes.set(route.name, route);
    return this;
  }

  /**
   * Copies every route of `collection`, in its order, under `prefix` (`/_profiler` + `/{token}` →
   * `/_profiler/{token}`; a root `/` route becomes `/_profiler/`). Later changes to `collection` are
   * not seen here: mount a collection once it is complete.
   */
  mount<const Prefix extends string, Mounted extends object, const NamePrefix extends string = ''>(
    prefix: Prefix,
    collection: RouteCollection<Mounted>,
    options: MountOptions & { namePrefix?: NamePrefix } = {},
  ): RouteCollection<Routes & MountedRoutes<Mounted, NamePrefix, Prefix>> {
    const trimmed = prefix.trim().replace(/^\/+|\/+$/g, '');
    const head = trimmed === '' ? '' : `/${trimmed}`;
    for (const route of collection) {
      const own = route.options();
      const name = `${options.namePrefix ?? ''}${route.name}`;
      const path = `${head}${route.path}`;
      const host = own.host ?? options.host ?? null;
      // The collection's requirements go to the routes that have that parameter; its plain defaults
      // to those that have the parameter or whose controller takes the argument.
      const { variables } = route.with({ name, path, options: { host, requirements: {}, defaults: {} } }).compiled;
      const controller = own.defaults?.['_controller'];
      const takes = typeof controller === 'function' ? [...variables, ...argumentNames(controller as Controller)] : null;
      this.add(
        route.with({
          name,
          path,
          options: {
            host,
            schemes: own.schemes?.length ? own.schemes : options.schemes,
            methods: own.methods?.length ? own.methods : options.methods,
            requirements: { ...entriesNamed(options.requirements, (name) => variables.includes(name)), ...own.requirements },
            defaults: {
              ...(takes === null
                ? options.defaults
                : entriesNamed(options.defaults, (name) => name.startsWith('_') || takes.includes(name))),
              ...own.defaults,
            },
          },
        }),
      );
    }
    return this as RouteCollection<Routes & MountedRoutes<Mounted, NamePrefix, Prefix>>;
  }

  get(name: string): Route | undefined {
    return this.#routes.get(name);
  }

  has(name: string): boolean {
    return this.#routes.has(name);
  }

  remove(name: string): this {
    this.#routes.delete(name);
    return this;
  }

  /** The routes in the order they are tried. */
  all(): Route[] {
    return [...this.#routes.values()];
  }

  get size(): number {
    return this.#routes.size;
  }

  [Symbol.iterator](): IterableIterator<Route> {
    return this.#routes.values();
  }
}

function argumentNames(controller: Controller): string[] {
  return argumentMetadataOf(controller).map((argument) => argument.name);
}

/** The entries of `values` whose name `keep` accepts. */
function entriesNamed<T>(values: Readonly<Record<string, T>> | undefined, keep: (name: string) => boolean): Record<string, T> {
  const kept: Record<string, T> = {};
  for (const [name, value] of Object.entries(values ?? {})) {
    if (keep(name)) kept[name] = value;
  }
  return kept;
}
