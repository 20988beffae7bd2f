import type { Controller } from '@switchboard/http-kernel';
import { argumentMetadataOf } from '@switchboard/http-kernel/internal';
import type { Token } from 'path-to-regexp';
import { RouteDefinitionError } from '../error/routing-error.js';
import { compilePattern, normaliseRequirements, type CompiledPattern } from './compiled-pattern.js';
import { assertParameterSchemas } from './parameter-schemas.js';
import type { ParameterSchemas } from './route-signature.js';

/** How a route is declared. Everything but the path is optional. */
export interface RouteOptions {
  /** Stored as the `_controller` default, so it becomes the `_controller` request attribute. */
  controller?: Controller | string;
  /** Allowed methods (any case); none = every method. HEAD is accepted wherever GET is. */
  methods?: string | readonly string[];
  /** Allowed schemes (`http`, `https`); none = both. */
  schemes?: string | readonly string[];
  /**
   * Host pattern in path-to-regexp syntax with `.` as delimiter, e.g. `:version.api.example.com`;
   * matched case-insensitively against the host without its port. Its parameters join the path's.
   */
  host?: string | null;
  /** Regular expression per parameter (anchors are implied). */
  requirements?: Readonly<Record<string, string | RegExp>>;
  /**
   * A Standard Schema per path or host parameter (`{ id: z.coerce.number().int().positive() }`).
   * Requirements still decide whether the route matches; on a match the schema validates the
   * value (a refusal is a 400 naming `/params/<name>`) and its output becomes the attribute.
   */
  params?: ParameterSchemas;
  /**
   * Values of the route's attributes: defaults of optional parameters and any route-level option
   * (`_cache`, `_is_granted`, `_stateless`…). All of them become request attributes on a match.
   * A name without a leading `_` must be a parameter's or an argument's of the controller (checked
   * here when the controller is a function).
   */
  defaults?: Readonly<Record<string, unknown>>;
  /**
   * Route defaults the route works without, so no listener need act on them (a `PUBLIC_ACCESS`
   * rule is true without a firewall). Every other `_` default needs its listener registered:
   * the kernel refuses to serve without it (`HttpKernel.checkDeclarations`).
   */
  optionalDefaults?: readonly string[];
}

/** What matching needs of a route, computed once when it is defined. */
export interface CompiledRoute {
  /** The whole path pattern: generation walks its tokens. */
  readonly path: CompiledPattern;
  /** The path without its trailing slash: matching uses it, with an optional `/` at the end. */
  readonly core: CompiledPattern;
  readonly host: CompiledPattern | null;
  /** `^core/?$`, dot-all, case-sensitive. */
  readonly regex: RegExp;
  /** `^host$`, dot-all, case-insensitive. */
  readonly hostRegex: RegExp | null;
  /** The path ends with `/` (the root `/` does not count). */
  readonly hasTrailingSlash: boolean;
  /** The path ends with a parameter (which may absorb a trailing slash if its requirement allows). */
  readonly hasTrailingVar: boolean;
  /** Path then host parameter names. */
  readonly variables: readonly string[];
}

/** One named route. Immutable; a collection re-creates routes when it mounts them under a prefix. */
export class Route {
  readonly path: string;
  readonly methods: readonly string[];
  readonly schemes: readonly string[];
  readonly host: string | null;
  readonly requirements: Readonly<Record<string, string>>;
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly optionalDefaults: readonly string[];
  /** The parameter schemas, by parameter name. */
  readonly params: ParameterSchemas;
  readonly compiled: CompiledRoute;

  constructor(
    readonly name: string,
    path: string,
    options: RouteOptions = {},
  ) {
    if (typeof name !== 'string' || name === '') throw new RouteDefinitionError(String(name), 'a route needs a non-empty name.');
    this.path = withLeadingSlash(path);
    this.methods = unique(list(options.methods).map((m) => m.toUpperCase()));
    this.schemes = unique(list(options.schemes).map((s) => s.toLowerCase()));
    this.host = options.host === undefined || options.host === null || options.host === '' ? null : options.host.toLowerCase();
    const defaults: Record<string, unknown> = { ...options.defaults };
    if (options.controller !== undefined) defaults['_controller'] = options.controller;
    this.defaults = Object.freeze(defaults);
    this.optionalDefaults = Object.freeze([...(options.optionalDefaults ?? [])]);
    try {
      this.requirements = Object.freeze(normaliseRequirements(options.requirements ?? {}));
      this.compiled = compileRoute(this.path, this.host, this.requirements);
      assertRequirementsNameParameters(this.compiled.variables, this.requirements);
      assertDefaultsNameValues(this.compiled.variables, this.defaults);
      this.params = Object.freeze({ ...options.params });
      assertParameterSchemas(this.params, this.compiled.variables);
    } catch (error) {
      if (error instanceof RouteDefinitionError) throw error;
      const problem = error instanceof Error ? error.message : String(error);
      throw new RouteDefinitionError(name, `${problem} (path "${this.path}"${this.host === null ? '' : `, host "${this.host}"`})`, {
        cause: error,
      });
    }
  }

  /** A copy under another name and/or with changes, used for prefixes and mounting. */
  with(changes: { name?: string; path?: string; options?: RouteOptions }): Route {
    return new Route(changes.name ?? this.name, changes.path ?? this.path, { ...this.options(), ...changes.options });
  }

  /** The options this route was built from (controller folded into `defaults`). */
  options(): RouteOptions {
    return {
      methods: this.methods,
      schemes: this.schemes,
      host: this.host,
      requirements: this.requirements,
      params: this.params,
      defaults: this.defaults,
      optionalDefaults: this.optionalDefaults,
    };
  }
}

function compileRoute(path: string, host: string | null, requirements: Readonly<Record<string, string>>): CompiledRoute {
  const hasTrailingSlash = path !== '/' && path.endsWith('/') && !path.endsWith('\\/');
  const full = compilePattern(path, requirements, '/');
  const corePath = path === '/' ? '' : hasTrailingSlash ? path.slice(0, -1) : path;
  const core = compilePattern(corePath, requirements, '/');
  const hostPattern = host === null ? null : compilePattern(host, requirements, '.');
  for (const name of hostPattern?.variables ?? []) {
    if (core.variables.includes(name)) throw new Error(`parameter "${name}" appears in both the host and the path.`);
  }
  return {
    path: full,
    core,
    host: hostPattern,
    regex: new RegExp(`^${core.source}/?$`, 's'),
    hostRegex: hostPattern === null ? null : new RegExp(`^${hostPattern.source}$`, 'is'),
    hasTrailingSlash,
    hasTrailingVar: endsWithVariable(core.tokens),
    variables: [...core.variables, ...(hostPattern?.variables ?? [])],
  };
}

/**
 * A requirement for a parameter the path (and host) does not have can never take effect
 * (`requirements: { noteId }` on `/notes/:id`).
 */
function assertRequirementsNameParameters(variables: readonly string[], requirements: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(requirements)) {
    if (!variables.includes(name)) {
      throw new Error(`the requirement for "${name}" names no parameter (the route's parameters: ${listed(variables)}).`);
    }
  }
}

/**
 * A default whose name does not start with `_` gives a value to a parameter or to an argument of
 * the controller; one that names neither is a misspelling (`{ pgae: '1' }`) that never takes
 * effect. Checked when the controller is a function: a named one is known only to the kernel.
 */
function assertDefaultsNameValues(variables: readonly string[], defaults: Readonly<Record<string, unknown>>): void {
  const controller = defaults['_controller'];
  if (typeof controller !== 'function') return;
  const takenByController = argumentMetadataOf(controller as Controller).map((argument) => argument.name);
  for (const name of Object.keys(defaults)) {
    if (name.startsWith('_') || variables.includes(name) || takenByController.includes(name)) continue;
    throw new Error(
      `the default "${name}" names neither a parameter nor an argument of the controller ` +
        `(the route's parameters: ${listed(variables)}; the controller's arguments: ${listed(takenByController)}); ` +
        'a value for listeners is a default named with a leading "_".',
    );
  }
}

function listed(names: readonly string[]): string {
  return names.length === 0 ? 'none' : names.join(', ');
}

function endsWithVariable(tokens: readonly Token[]): boolean {
  const last = tokens[tokens.length - 1];
  if (last === undefined) return false;
  if (last.type === 'group') return endsWithVariable(last.tokens);
  return last.type === 'param' || last.type === 'wildcard';
}

/**
 * The path with exactly one leading `/`. A path opening with an optional group whose text starts
 * with the slash (`{/:lang}/docs`) already has it: another one would only match `//docs`.
 */
function withLeadingSlash(path: string): string {
  if (path.startsWith('{/')) return path;
  return `/${path.replace(/^\/+/, '')}`;
}

function list(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : [...value];
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
