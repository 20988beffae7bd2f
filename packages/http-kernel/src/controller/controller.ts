/**
 * A controller: any function. Its arguments are resolved by the ArgumentResolver from the
 * argument list declared with `defineController`, or else read from its parameter names.
 */
export type Controller = (...args: never[]) => unknown;

/** What an argument resolver knows about one controller parameter. */
export interface ArgumentMetadata {
  readonly name: string;
  readonly index: number;
  /** The parameter has a default value in the source (`id = 1`) or one was declared. */
  readonly hasDefault: boolean;
  readonly defaultValue?: unknown;
  /** Rest parameter (`...ids`): a resolver may supply several values. */
  readonly variadic: boolean;
  /** Free-form options a value resolver reads (payload mapping's schema, for instance). */
  readonly options?: Readonly<Record<string, unknown>>;
}

export interface ArgumentDeclaration {
  name: string;
  defaultValue?: unknown;
  variadic?: boolean;
  options?: Readonly<Record<string, unknown>>;
}

const DECLARED = Symbol.for('switchboard.controller.arguments');
const NAMED = Symbol.for('switchboard.controller.name');

interface DeclaredController {
  [DECLARED]?: readonly ArgumentMetadata[];
  [NAMED]?: string;
}

declare const ROUTE_ARGUMENTS: unique symbol;

/**
 * To the compiler only: the values a controller takes by name from its route (path parameters,
 * defaults, request attributes, `request`) and the type it expects for each. A route whose
 * values do not satisfy them does not compile where the route is written.
 */
export interface RouteArguments<Needs> {
  readonly [ROUTE_ARGUMENTS]?: (available: Needs) => void;
}

/** A controller that states nothing about its arguments' types (a plain function). */
export type UntypedController = Controller & { readonly [ROUTE_ARGUMENTS]?: undefined };

/**
 * What a controller declared with `names` needs from its route: each plain name with the type of
 * the parameter at its position. A declaration object is left out: its resolver or its default
 * supplies the value.
 */
export type ControllerNeeds<Names extends ReadonlyArray<string | ArgumentDeclaration>, Params extends readonly unknown[]> = [
  Names,
] extends [unknown]
  ? NeedsFrom<NeedEntries<Names, Params>>
  : never;

/** `[name, type]` per plain name: a mapped tuple, which the compiler maps element by element. */
type NeedEntries<Names extends readonly unknown[], Params> = {
  [K in keyof Names]: Names[K] extends string ? [Names[K], K extends keyof Params ? Params[K] : unknown] : never;
}[number];

/**
 * The needs as an object type, known by the names and types only (reached through a conditional
 * type that always holds, not as `ControllerNeeds` of the function's own parameter list): the
 * controllers that need the same get the same type, and the compiler checks a route against it
 * once.
 */
type NeedsFrom<Entries extends [string, unknown]> = { [Entry in Entries as Entry[0]]: Entry[1] };

/**
 * Declares a controller's arguments explicitly (what it receives, in order), and optionally a
 * name for logs and the profiler. Without it the parameter names are read from the function's
 * source, which a minifier may rename. The result carries, for the compiler, the type each plain
 * name expects: a route that gives the controller a parameter of another type, or no value for a
 * name, does not compile.
 *
 * @example defineController(['request', 'id'], (request: Request, id: string) => new Response(id))
 */
export function defineController<const Names extends ReadonlyArray<string | ArgumentDeclaration>, C extends Controller>(
  args: Names,
  controller: C,
  name?: string,
): C & RouteArguments<ControllerNeeds<Names, Parameters<C>>> {
  const metadata = args.map((arg, index): ArgumentMetadata => {
    const declared = typeof arg === 'string' ? { name: arg } : arg;
    return {
      name: declared.name,
      index,
      hasDefault: 'defaultValue' in declared,
      ...('defaultValue' in declared ? { defaultValue: declared.defaultValue } : {}),
      variadic: declared.variadic ?? false,
      ...(declared.options === undefined ? {} : { options: declared.options }),
    };
  });
  const target = controller as C & DeclaredController;
  Object.defineProperty(target, DECLARED, { value: Object.freeze(metadata) });
  if (name !== undefined) Object.defineProperty(target, NAMED, { value: name });
  // The needs exist only for the compiler: nothing is stored under them.
  return controller as C & RouteArguments<ControllerNeeds<Names, Parameters<C>>>;
}

const inferred = new WeakMap<Controller, readonly ArgumentMetadata[]>();

/** The argument list of a controller: declared, or parsed once from its source and cached. */
export function argumentMetadataOf(controller: Controller): readonly ArgumentMetadata[] {
  const declared = (controller as DeclaredController)[DECLARED];
  if (declared !== undefined) return declared;
  let parsed = inferred.get(controller);
  if (parsed === undefined) {
    parsed = Object.freeze(parseParameters(Function.prototype.toString.call(controller)));
    inferred.set(controller, parsed);
  }
  return parsed;
}

export function controllerName(controller: Controller | string): string {
  if (typeof controller === 'string') return controller;
  return (controller as DeclaredController)[NAMED] ?? (controller.name || 'anonymous controller');
}

/** Reads parameter names from a function's source: `(a, b = 1, ...c)`, `a =>`, `function f(a)`. */
function parseParameters(source: string): ArgumentMetadata[] {
  const list = parameterListOf(source);
  if (list.trim() === '') return [];
  return splitTopLevel(list).map((raw, index): ArgumentMetadata => {
    const text = raw.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '').trim();
    const variadic = text.startsWith('...');
    const body = variadic ? text.slice(3).trim() : text;
    const name = /^[\p{L}_$][\p{L}\p{N}_$]*/u.exec(body)?.[0] ?? `arg${index}`;
    return { name, index, hasDefault: /^[^=]+=(?!>)/.test(body), variadic };
  });
}

function parameterListOf(source: string): string {
  const arrowWithoutParens = /^\s*(?:async\s+)?([\p{L}_$][\p{L}\p{N}_$]*)\s*=>/u.exec(source);
  if (arrowWithoutParens) return arrowWithoutParens[1]!;
  const open = source.indexOf('(');
  if (open < 0) return '';
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return source.slice(open + 1, i);
    }
  }
  return '';
}

function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  const last = list.slice(start);
  if (last.trim() !== '') parts.push(last);
  return parts;
}
