import { union, type RefusedRoutes } from './after-pass.js';
import { comment } from '../internal/source-comment.js';
import type { Candidate } from './candidate.js';
import {
  methodNotAllowedMatch,
  routeMatch,
  type MatchContext,
  type MethodNotAllowedMatch,
  type RouteMatch,
  type TrailingSlashMode,
} from './match-result.js';
import { paramsOf, trailingParameterMatch } from './reference-loop.js';
import { END, LITERALS, OPAQUE, PARAM, type TreeItem, type TreeNode } from './segment-tree.js';

/*
 * The matcher emitter: writes the segment tree (segment-tree.ts) out as JavaScript, the way the
 * reference dumps its matcher to PHP, and keeps the source so that it can be read and printed.
 *
 * - One function per tree node, named `n<id>` and commented with the path pattern it stands for.
 *   Its arguments: the decoded path; `pos`, the offset of the `/` before the node's segment (or
 *   the path's end); the request's method and context; the refusal collector; then `aN, bN`, the
 *   start and end offsets of each parameter captured on the way down. Nothing else is allocated
 *   on the way down; only an accepting route builds its params from the offsets.
 * - A node's items are tried in order: literal children as a `switch` on the segment's length,
 *   each text compared in place; parameter children (checked against their requirement when it is
 *   not the default); routes ending here; opaque routes, run with their own expression.
 * - Each route's rule (host, trailing slash, scheme, method: reference-loop.ts has it in words) is
 *   written by one method, `#emitRule`, specialised with what is known of the route in advance.
 * - A walk answers a route's result, `undefined` when no route's path matched, `REFUSED` when
 *   some did but each refused the request, `STOP` when a GET reached a GET route across the
 *   trailing slash (the pass ends; a redirect follows), or in the collecting walk, for a route of
 *   plain segments without schemes, that route's match wrapped in `SlashToggled`. In the first
 *   walk, when the routes that refused all end at one leaf and could only refuse for their method
 *   (no host, scheme or trailing slash to check), the walk answers that leaf's 405, built while
 *   emitting. Its node functions note refusals as numbers: `refused` is `undefined`, the index of
 *   that leaf's 405 in `ALLOW`, or -1 once a second leaf or another kind of refusal joins in; the
 *   `walk` function turns them into the 405 or `REFUSED` (docs/decisions.md, R4).
 * - The tree is emitted twice, from the same methods: the *first walk* (`n<id>`), which most
 *   requests run once, gathers nothing and is only given paths that do not end with a slash (so
 *   each route's slash check is settled while emitting); and the *collecting walk* (`cn<id>`),
 *   which gathers the refused methods and schemes into its `refusals` argument and serves paths
 *   ending with a slash and everything after a first walk without a route (405, redirects). Kept
 *   apart, hits and 404s stay as fast as without the collecting code (measured: docs/decisions.md,
 *   "One tree, one emitter, two walks").
 */

/** Some route's path matched the path, and every such route refused the request. */
export const REFUSED: unique symbol = Symbol('refused');
/** A GET or HEAD reached a GET route across the trailing slash: the pass ends, a redirect follows. */
export const STOP: unique symbol = Symbol('stop');
/**
 * What the collecting walk answers in place of `STOP` for a route of plain segments that refused
 * the request for its trailing slash alone (no scheme to check): the route's match, for the
 * redirect to the toggled path (docs/decisions.md, R2).
 */
export class SlashToggled {
  constructor(readonly match: RouteMatch) {}
}
export type WalkOutcome = RouteMatch | typeof REFUSED | typeof STOP | undefined;

/** What a collecting walk gathers from the routes that refused a request for its method or scheme alone. */
export class CollectedRefusals implements RefusedRoutes {
  allow: string[] | null = null;
  schemes: string[] | null = null;
}

/** The first walk: one pass over the decoded path. */
export type Walk = (path: string, method: string, context: MatchContext) => WalkOutcome | MethodNotAllowedMatch;
/** The collecting walk: the same pass, gathering what refused routes allow into `refusals`. */
export type CollectingWalk = (
  path: string,
  method: string,
  context: MatchContext,
  refusals: CollectedRefusals,
) => WalkOutcome | SlashToggled;

export interface EmittedMatcher {
  readonly walk: Walk;
  readonly collect: CollectingWalk;
  /** The generated JavaScript of both walks, as run. */
  readonly source: string;
}

/** Literal segments up to this length are compared character by character, longer ones with `startsWith`. */
const INLINE_COMPARE_LIMIT = 12;

/** Emits the matcher for a tree; `null` where code generation from strings is disallowed. */
export function emitMatcher(tree: TreeNode, mode: TrailingSlashMode, routeCount: number): EmittedMatcher | null {
  const first = new MatcherEmitter(mode, false);
  const collecting = new MatcherEmitter(mode, true);
  const firstSource = first.emit(tree, routeCount);
  const collectingSource = collecting.emit(tree, routeCount);
  try {
    return {
      walk: first.instantiate(firstSource) as Walk,
      collect: collecting.instantiate(collectingSource) as CollectingWalk,
      source: `${firstSource}\n\n${collectingSource}`,
    };
  } catch (error) {
    if (error instanceof EvalError) return null;
    throw error;
  }
}

class MatcherEmitter {
  readonly #mode: TrailingSlashMode;
  /** Emitting the collecting walk (else the first walk). */
  readonly #collects: boolean;
  /** The node functions' names, `<prefix><id>`; their arguments. */
  readonly #prefix: string;
  readonly #args: readonly string[];
  /** Values the generated code reads (routes, requirement tests, helpers), by the name it uses. */
  readonly #constants = new Map<string, unknown>([
    ['routeMatch', routeMatch],
    ['paramsOf', paramsOf],
    ['hostParams', hostParams],
    ['trailingParameterMatch', trailingParameterMatch],
    ['union', union],
    ['REFUSED', REFUSED],
    ['STOP', STOP],
    ['SlashToggled', SlashToggled],
  ]);
  readonly #functions: string[] = [];
  #lines: string[] = [];
  #indent = 0;
  #nodeCount = 0;
  #testCount = 0;
  /** The first walk: the 405 of each leaf whose routes can only refuse for their method. */
  readonly #allows: MethodNotAllowedMatch[] = [];

  constructor(mode: TrailingSlashMode, collects: boolean) {
    this.#mode = mode;
    this.#collects = collects;
    this.#prefix = collects ? 'cn' : 'n';
    this.#args = collects ? ['method', 'context', 'refusals'] : ['method', 'context'];
  }

  emit(tree: TreeNode, routeCount: number): string {
    const root = this.#emitNode(tree, 0, '');
    const args = this.#args.join(', ');
    const header = [
      this.#collects
        ? '// The collecting walk: the same tree, refused methods and schemes gathered into `refusals`.'
        : `// Route matcher generated by @switchboard/router: ${routeCount} routes, trailing slash "${this.#mode}".`,
      `// ${this.#prefix}<id>(path, pos, ${args}, a0, b0, …): one node of the segment tree; \`pos\` is the`,
      '// offset of the "/" before its segment, aN and bN bound the Nth parameter captured on the way down.',
      ...(this.#collects
        ? []
        : [
            "// A refusal is a number: the index of its leaf's 405 in ALLOW, or -1 when another leaf refused too,",
            '// or a route refused for its host, scheme or trailing slash.',
          ]),
      '"use strict";',
    ];
    const walk = this.#collects
      ? [
          `return function collect(path, ${args}) {`,
          '  if (path.charCodeAt(0) !== 47) return undefined;',
          `  return ${root}(path, 0, ${args});`,
          '};',
        ]
      : [
          `return function walk(path, ${args}) {`,
          '  if (path.charCodeAt(0) !== 47) return undefined;',
          `  const r = ${root}(path, 0, ${args});`,
          '  return typeof r === "number" ? (r < 0 ? REFUSED : ALLOW[r]) : r;',
          '};',
        ];
    this.#constant('ALLOW', this.#allows);
    return [...header, '', ...this.#functions.flatMap((fn) => [fn, '']), ...walk].join('\n');
  }

  instantiate(source: string): Walk | CollectingWalk {
    const factory = new Function(...this.#constants.keys(), source) as (...values: unknown[]) => Walk | CollectingWalk;
    return factory(...this.#constants.values());
  }

  #line(text: string): void {
    this.#lines.push(`${'  '.repeat(this.#indent)}${text}`);
  }

  /** `open` { body } `close`, the body indented. */
  #block(open: string, body: () => void, close = '}'): void {
    this.#line(open);
    this.#indent++;
    body();
    this.#indent--;
    this.#line(close);
  }

  #constant(name: string, value: unknown): string {
    this.#constants.set(name, value);
    return name;
  }

  /** The function for `node` (reached after `depth` parameters, under `pattern`); returns its name. */
  #emitNode(node: TreeNode, depth: number, pattern: string): string {
    const name = `${this.#prefix}${this.#nodeCount++}`;
    // Its place is taken now, so the source lists a node before its children.
    const slot = this.#functions.push('') - 1;
    const outer = this.#lines;
    const outerIndent = this.#indent;
    this.#lines = [];
    this.#indent = 0;
    const args = ['path', 'pos', ...this.#args, ...offsetNames(depth)].join(', ');
    this.#block(`function ${name}(${args}) {`, () => {
      this.#line(`// ${comment(pattern === '' ? '/' : `${pattern}/…`)}`);
      this.#line('const length = path.length;');
      const descends = node.items.some((item) => item.kind === LITERALS || item.kind === PARAM);
      if (descends) {
        this.#line('let end = path.indexOf("/", pos + 1);');
        this.#line('if (end < 0) end = length;');
      }
      if (this.#collects && node.items.some((item) => item.kind === END || item.kind === OPAQUE)) {
        this.#line('const slash = length > 1 && path.charCodeAt(length - 1) === 47;');
      }
      this.#line(this.#collects ? 'let refused = false;' : 'let refused;');
      if (descends) this.#line('let r;');
      for (const item of node.items) this.#emitItem(item, depth, pattern);
      this.#line(this.#collects ? 'return refused ? REFUSED : undefined;' : 'return refused;');
    });
    this.#functions[slot] = this.#lines.join('\n');
    this.#lines = outer;
    this.#indent = outerIndent;
    return name;
  }

  #emitItem(item: TreeItem, depth: number, pattern: string): void {
    if (item.kind === LITERALS) this.#emitLiterals(item, depth, pattern);
    else if (item.kind === END) this.#emitEnd(item.candidates!);
    else if (item.kind === OPAQUE) this.#emitOpaque(item.candidates![0]!);
    else this.#emitParam(item, depth, pattern);
  }

  /** Literal children: a `switch` on the segment length, then the few texts of that length compared in place. */
  #emitLiterals(item: TreeItem, depth: number, pattern: string): void {
    this.#block('if (pos < length) {', () => {
      this.#block('switch (end - pos - 1) {', () => {
        item.texts!.forEach((texts, size) => {
          if (texts === undefined) return;
          this.#line(`case ${size}:`);
          this.#indent++;
          texts.forEach((text, j) => {
            const child = this.#emitNode(item.nodes![size]![j]!, depth, `${pattern}/${text}`);
            this.#line(`${j === 0 ? 'if' : '} else if'} (${segmentEquals(text)}) { // ${comment(JSON.stringify(text))}`);
            this.#indent++;
            this.#emitCall(child, depth, false);
            this.#indent--;
          });
          this.#line('}');
          this.#line('break;');
          this.#indent--;
        });
      });
    });
  }

  /** A parameter child: any non-empty segment, or one its requirement accepts. */
  #emitParam(item: TreeItem, depth: number, pattern: string): void {
    const requirement = item.test === null ? '' : `<${item.test.source.slice(4, -2)}>`;
    const child = this.#emitNode(item.child!, depth + 1, `${pattern}/:${item.name}${requirement}`);
    const test = item.test === null ? '' : ` && ${this.#constant(`t${this.#testCount++}`, item.test)}.test(path.slice(pos + 1, end))`;
    this.#block(`if (pos < length && end > pos + 1${test}) {`, () => this.#emitCall(child, depth, true));
  }

  /** A call of a child node at the segment's end; `captures`: the segment is the child's last parameter. */
  #emitCall(child: string, depth: number, captures: boolean): void {
    const args = ['path', 'end', ...this.#args, ...offsetNames(depth), ...(captures ? ['pos + 1', 'end'] : [])];
    this.#line(`r = ${child}(${args.join(', ')});`);
    if (this.#collects) {
      this.#line('if (r === REFUSED) refused = true;');
      this.#line('else if (r !== undefined) return r;');
      return;
    }
    this.#block('if (r !== undefined) {', () => {
      this.#line('if (typeof r !== "number") return r;');
      this.#line('refused = refused === undefined ? r : -1;');
    });
  }

  /** Routes whose path ends at this node: the path must end here, or with one more `/`. */
  #emitEnd(candidates: readonly Candidate[]): void {
    // First walk: can these routes refuse for their method alone? Then their 405 is known now.
    const methodOnly =
      !this.#collects &&
      candidates.every(
        (candidate) =>
          candidate.hostRegex === null &&
          candidate.schemeList.length === 0 &&
          candidate.methodList.length > 0 &&
          (!candidate.hasTrailingSlash || this.#mode === 'ignore'),
      );
    this.#block('if (pos >= length - 1) {', () => {
      for (const candidate of candidates) {
        const route = this.#routeConstant(candidate);
        const slashDiffers = !this.#collects ? String(candidate.hasTrailingSlash) : candidate.hasTrailingSlash ? '!slash' : 'slash';
        this.#emitRule(candidate, slashDiffers, (host) => this.#offsetParams(candidate, route, host), { plain: true, quiet: methodOnly });
      }
      if (methodOnly) {
        const allow = candidates.reduce<string[] | null>((into, candidate) => union(into, candidate.methodList), null)!;
        const index = this.#allows.push(methodNotAllowedMatch(Object.freeze(allow))) - 1;
        this.#line(`refused = refused === undefined ? ${index} : -1; // 405, Allow: ${allow.join(', ')}`);
      }
    });
  }

  /** A route whose path is not plain segments: its own expression decides, then the same rule. */
  #emitOpaque(candidate: Candidate): void {
    const route = this.#routeConstant(candidate);
    this.#block('{', () => {
      this.#line(`let match = ${route}.regex.exec(path);`);
      this.#block('if (match !== null) {', () => {
        let slashDiffers = candidate.hasTrailingSlash ? '!slash && path !== "/"' : 'slash';
        if (!this.#collects) {
          slashDiffers = candidate.hasTrailingSlash ? 'path !== "/"' : 'false';
        } else if (candidate.hasTrailingVar) {
          // A trailing parameter may keep the slash: then the slash rule does not apply.
          this.#line(`const kept = slash ? trailingParameterMatch(${route}.route, match, path) : null;`);
          this.#line('if (kept !== null) match = kept;');
          slashDiffers = `kept === null && ${candidate.hasTrailingSlash ? '!slash && path !== "/"' : 'slash'}`;
        }
        this.#emitRule(candidate, slashDiffers, (host) => `paramsOf(${route}.route, match, ${host})`);
      });
    });
  }

  /**
   * The rule of one route whose path matched, in Symfony's order: host, trailing slash,
   * scheme, method; then its result. `slashDiffers`: the condition that the request's trailing
   * slash is not the route's (`true` or `false` when known in advance); `params(host)`: its
   * params, given the host match's name (or `null`). `plain`: a route of plain segments (not
   * opaque); `quiet`: a refusal only ends the rule (its leaf notes the refusal after its rules).
   */
  #emitRule(
    candidate: Candidate,
    slashDiffers: string,
    params: (host: string) => string,
    { plain = false, quiet = false }: { plain?: boolean; quiet?: boolean } = {},
  ): void {
    const route = this.#routeConstant(candidate);
    const label = `rule${candidate.index}`;
    const refuse = (collect: string | null) => {
      if (!quiet) this.#line(this.#collects ? 'refused = true;' : 'refused = -1;');
      if (collect !== null && this.#collects) this.#line(collect);
      this.#line(`break ${label};`);
    };
    const methods = candidate.methodList.length === 0 ? 'ANY' : candidate.methodList.join('|');
    this.#line(`// #${candidate.index} ${comment(candidate.route.name)}: ${methods} ${comment(candidate.route.path)}`);
    this.#block(`${label}: {`, () => {
      let host = 'null';
      if (candidate.hostRegex !== null) {
        host = 'host';
        this.#line(`const host = ${route}.hostRegex.exec(context.host);`);
        this.#block('if (host === null) {', () => refuse(null));
      }
      const result = candidate.fixedResult === null ? `routeMatch(${route}.route, ${params(host)})` : `${route}.fixedResult`;
      const slashRefusal = () => {
        if (this.#mode === 'redirect' && candidate.acceptsGet) {
          const toggled = this.#collects && plain && candidate.schemeList.length === 0;
          this.#line(`if (method === "GET" || method === "HEAD") return ${toggled ? `new SlashToggled(${result})` : 'STOP'};`);
        }
        refuse(null);
      };
      if (this.#mode !== 'ignore' && slashDiffers === 'true') {
        slashRefusal();
        return;
      }
      if (this.#mode !== 'ignore' && slashDiffers !== 'false') this.#block(`if (${slashDiffers}) {`, slashRefusal);
      if (candidate.schemeList.length > 0) {
        const differs = candidate.schemeList.map((scheme) => `context.scheme !== ${JSON.stringify(scheme)}`).join(' && ');
        this.#block(`if (${differs}) {`, () => refuse(`refusals.schemes = union(refusals.schemes, ${route}.schemeList);`));
      }
      if (candidate.methodList.length > 0) {
        this.#block(`if (${methodDiffers(candidate.methodList)}) {`, () =>
          refuse(`refusals.allow = union(refusals.allow, ${route}.methodList);`),
        );
      }
      this.#line(`return ${result};`);
    });
  }

  /** The params of a tree route: an object literal over the offsets, its defaults spread first. */
  #offsetParams(candidate: Candidate, route: string, host: string): string {
    const fields = candidate.pathVariables.map((name, i) => {
      // A quoted `__proto__` key in a literal would set the prototype; a computed one is a plain property.
      const key = name === '__proto__' ? '["__proto__"]' : JSON.stringify(name);
      return `${key}: path.slice(a${i}, b${i})`;
    });
    if (Object.keys(candidate.defaults).length > 0) fields.unshift(`...${route}.defaults`);
    const literal = `{ ${fields.join(', ')} }`;
    return host === 'null' ? literal : `hostParams(${route}.route, ${literal}, ${host})`;
  }

  #routeConstant(candidate: Candidate): string {
    return this.#constant(`route${candidate.index}`, candidate);
  }
}

/** `a0, b0, a1, b1…`: the offsets of the parameters captured above a node at `depth`. */
function offsetNames(depth: number): string[] {
  return Array.from({ length: depth }, (_, i) => [`a${i}`, `b${i}`]).flat();
}

/** A condition that the segment after `pos` (its length already known) is `text`. */
function segmentEquals(text: string): string {
  if (text.length === 0) return 'true';
  if (text.length > INLINE_COMPARE_LIMIT) return `path.startsWith(${JSON.stringify(text)}, pos + 1)`;
  return [...text].map((_, k) => `path.charCodeAt(pos + ${k + 1}) === ${text.charCodeAt(k)}`).join(' && ');
}

/** The method test: none of the route's methods, nor HEAD where it allows GET. */
function methodDiffers(methods: readonly string[]): string {
  const accepted = methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : methods;
  return accepted.map((method) => `method !== ${JSON.stringify(method)}`).join(' && ');
}

/** Adds a host match's captures to a route's params (a group that did not take part sets nothing). */
function hostParams(route: Candidate['route'], params: Record<string, unknown>, host: RegExpExecArray): Record<string, unknown> {
  const names = route.compiled.host!.variables;
  for (let i = 0; i < names.length; i++) if (host[i + 1] !== undefined) params[names[i]!] = host[i + 1];
  return params;
}
