import { Route, type RouteOptions } from './route.js';

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
  requirements?: Readonly<Record<string, string | RegExp>>;
  defaults?: Readonly<Record<string, unknown>>;
}

/**
 * Named routes in declaration order, which is the order they are tried in. Adding a name that
 * exists replaces that route and moves it to the end (as Symfony does).
 */
export class RouteCollection implements Iterable<Route> {
  readonly #routes = new Map<string, Route>();

  /** Defines a route; the definition is checked now and an error names the route. */
  add(name: string, path: string, options?: RouteOptions): this;
  add(route: Route): this;
  add(nameOrRoute: string | Route, path?: string, options?: RouteOptions): this {
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
  mount(prefix: string, collection: RouteCollection, options: MountOptions = {}): this {
    const trimmed = prefix.trim().replace(/^\/+|\/+$/g, '');
    const head = trimmed === '' ? '' : `/${trimmed}`;
    for (const route of collection) {
      const own = route.options();
      const name = `${options.namePrefix ?? ''}${route.name}`;
      const path = `${head}${route.path}`;
      const host = own.host ?? options.host ?? null;
      // The collection's requirements go to the routes that have that parameter.
      const { variables } = route.with({ name, path, options: { host, requirements: {}, defaults: {} } }).compiled;
      this.add(
        route.with({
          name,
          path,
          options: {
            host,
            schemes: own.schemes?.length ? own.schemes : options.schemes,
            methods: own.methods?.length ? own.methods : options.methods,
            requirements: { ...forParameters(options.requirements, variables), ...own.requirements },
            defaults: { ...options.defaults, ...own.defaults },
          },
        }),
      );
    }
    return this;
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

/** The entries of `values` named after one of `variables`. */
function forParameters<T>(values: Readonly<Record<string, T>> | undefined, variables: readonly string[]): Record<string, T> {
  const kept: Record<string, T> = {};
  for (const [name, value] of Object.entries(values ?? {})) {
    if (variables.includes(name)) kept[name] = value;
  }
  return kept;
}
