import type { Candidate } from './candidate.js';
import { STOP, type Outcome, type Pass } from './pass.js';
import { routeMatch, type RouteMatch, type TrailingSlashMode } from './match-result.js';
import { check, union } from './route-check.js';
import { END, LITERALS, OPAQUE, type TreeNode } from './segment-tree.js';
import { walk } from './tree-walker.js';

/** Matches a decoded path against the tree: the first accepting route in order, STOP, or nothing. */
export type TreeMatcher = (path: string, pos: number, pass: Pass) => Outcome;

/**
 * The walk most requests need, without a pass object: for a decoded path that does not end with
 * `/`, from the root. It judges routes by path, trailing slash and method alone and allocates
 * nothing but the result. Answers: the first accepting route in order; `undefined` when no route's
 * path matched; `null` when some did but each rejected the request (a 405, or a 404 whose
 * slash-toggled retry may still find a route); STOP when a route needs more than that walk can
 * judge (a host or scheme restriction, an opaque route's own expression, a slash redirect) — the
 * caller then walks with a pass.
 */
export type QuickWalk = (path: string, method: string) => RouteMatch | typeof STOP | null | undefined;

export interface CompiledTree {
  /** The full walk, from the root (`pos` 0), with a pass. */
  readonly match: TreeMatcher;
  /**
   * Generated separately from `match`, so that the functions hits and 404s run never see the
   * rarer work (405 lists, slash redirects) and keep their JIT feedback to themselves.
   */
  readonly quickWalk: QuickWalk;
}

/** Literal segments up to this length are compared char by char in the generated code. */
const INLINE_COMPARE_LIMIT = 12;

/**
 * Turns the segment tree into JavaScript — one small function per node, literal children as a
 * `switch` on the segment length and inline character comparisons — the way the reference dumps
 * its matcher to PHP. Same walk as `tree-walker.ts`, without interpreting the tree at run time.
 * Falls back to that interpreter where code generation from strings is disallowed (its quick walk
 * always hands over to the walk with a pass).
 */
export function compileTree(tree: TreeNode, mode: TrailingSlashMode, generateCode = true): CompiledTree {
  if (generateCode) {
    try {
      return generate(tree, mode);
    } catch (error) {
      if (!(error instanceof EvalError)) throw error;
    }
  }
  return interpreted(tree);
}

function interpreted(tree: TreeNode): CompiledTree {
  return { match: (_path, pos, pass) => walk(tree, pos, pass, 0), quickWalk: () => STOP };
}

function generate(tree: TreeNode, mode: TrailingSlashMode): CompiledTree {
  const candidates: Candidate[] = [];
  const tests: RegExp[] = [];
  const functions: string[] = [];
  let nextId = 0;

  const candidateRef = (candidate: Candidate): string => {
    let index = candidates.indexOf(candidate);
    if (index < 0) index = candidates.push(candidate) - 1;
    return `C[${index}]`;
  };
  const testRef = (test: RegExp | null): string => (test === null ? '' : ` && T[${tests.push(test) - 1}].test(path.slice(pos + 1, end))`);
  const segmentEnd = 'if (end < 0) { end = path.indexOf("/", pos + 1); if (end < 0) end = length; }';

  /** The walk with a pass: parameter offsets in `pass.offsets`, rejections recorded in the pass. */
  const emitNode = (node: TreeNode, depth: number): string => {
    const name = `n${nextId++}`;
    const lines: string[] = [`function ${name}(path, pos, pass) {`, 'const length = path.length; let end = -1; let r; let o;'];
    for (const item of node.items) {
      if (item.kind === END) {
        const checks = item.candidates!.map((c) => endCheck(c, candidateRef(c), mode));
        lines.push(`if (pos >= length - 1) { ${checks.join(' ')} }`);
      } else if (item.kind === OPAQUE) {
        const ref = candidateRef(item.candidates![0]!);
        lines.push(`{ const m = ${ref}.regex.exec(path); if (m !== null) { r = check(${ref}, pass, m); if (r !== undefined) return r; } }`);
      } else if (item.kind === LITERALS) {
        const cases = literalCases(item.texts!, (size, j) => {
          const child = emitNode(item.nodes![size]![j]!, depth);
          return `r = ${child}(path, end, pass); if (r !== undefined) return r;`;
        });
        lines.push(`if (pos < length) { ${segmentEnd} switch (end - pos - 1) { ${cases} } }`);
      } else {
        const child = emitNode(item.child!, depth + 1);
        lines.push(
          `if (pos < length) { ${segmentEnd} if (end !== pos + 1${testRef(item.test)}) { o = pass.offsets; o[${depth * 2}] = pos + 1; o[${depth * 2 + 1}] = end; r = ${child}(path, end, pass); if (r !== undefined) return r; } }`,
        );
      }
    }
    lines.push('return undefined;', '}');
    functions.push(lines.join('\n'));
    return name;
  };

  /**
   * The quick walk (see `QuickWalk`): the offsets of the parameters above a node are arguments of
   * its function (`a0, b0, a1, b1…`), `touched` records that a route's path matched.
   */
  const emitQuickNode = (node: TreeNode, depth: number): string => {
    const name = `q${nextId++}`;
    const offsets = offsetNames(depth);
    const args = ['path', 'pos', 'method', ...offsets].join(', ');
    const passOn = ['path', 'end', 'method', ...offsets].join(', ');
    const afterChild = 'if (r !== undefined) { if (r !== null) return r; touched = true; }';
    const lines: string[] = [`function ${name}(${args}) {`, 'const length = path.length; let end = -1; let r; let touched = false;'];
    for (const item of node.items) {
      if (item.kind === END) {
        const checks = item.candidates!.map((c) => quickEndCheck(c, candidateRef(c), mode, offsets));
        lines.push(`if (pos >= length - 1) { touched = true; ${checks.join(' ')} }`);
      } else if (item.kind === OPAQUE) {
        lines.push(`if (${candidateRef(item.candidates![0]!)}.regex.exec(path) !== null) return STOP;`);
      } else if (item.kind === LITERALS) {
        const cases = literalCases(item.texts!, (size, j) => `r = ${emitQuickNode(item.nodes![size]![j]!, depth)}(${passOn}); ${afterChild}`);
        lines.push(`if (pos < length) { ${segmentEnd} switch (end - pos - 1) { ${cases} } }`);
      } else {
        const child = emitQuickNode(item.child!, depth + 1);
        lines.push(`if (pos < length) { ${segmentEnd} if (end !== pos + 1${testRef(item.test)}) { r = ${child}(${passOn}, pos + 1, end); ${afterChild} } }`);
      }
    }
    lines.push('return touched ? null : undefined;', '}');
    functions.push(lines.join('\n'));
    return name;
  };

  const root = emitNode(tree, 0);
  const quickRoot = emitQuickNode(tree, 0);
  const source = `"use strict";\n${functions.join('\n')}\nreturn { match: ${root}, quickWalk: (path, method) => ${quickRoot}(path, 0, method) };`;
  const factory = new Function('check', 'C', 'T', 'STOP', 'routeMatch', 'union', source) as (
    checkRoute: typeof check,
    candidateTable: readonly Candidate[],
    testTable: readonly RegExp[],
    stop: typeof STOP,
    makeMatch: typeof routeMatch,
    unite: typeof union,
  ) => CompiledTree;
  return factory(check, candidates, tests, STOP, routeMatch, union);
}

/**
 * The `case`s of a switch on the segment length over literal segments grouped by length: each
 * text compared in place, `branch(size, j)` run for the one that equals the segment.
 */
function literalCases(texts: ReadonlyArray<readonly string[] | undefined>, branch: (size: number, j: number) => string): string {
  const cases: string[] = [];
  texts.forEach((group, size) => {
    if (group === undefined) return;
    const branches = group.map((text, j) => `if (${compare(text)}) { ${branch(size, j)} break; }`);
    cases.push(`case ${size}: ${branches.join(' ')} break;`);
  });
  return cases.join(' ');
}

/** The argument names of the parameter offsets above a node at `depth`: `a0, b0, a1, b1…`. */
function offsetNames(depth: number): string[] {
  return Array.from({ length: depth }, (_, i) => [`a${i}`, `b${i}`]).flat();
}

/**
 * `check()` for a route ending at a tree leaf, specialised with what is known when compiling: its
 * trailing slash, its methods, the slash mode. Routes with a host or scheme restriction keep the
 * generic `check()`. Same decisions in the same order (route-check.ts): slash, then method.
 */
function endCheck(candidate: Candidate, ref: string, mode: TrailingSlashMode): string {
  if (candidate.hostRegex !== null || candidate.schemes !== null) {
    return `r = check(${ref}, pass, null); if (r !== undefined) return r;`;
  }
  const label = `c${ref.replace(/\D/g, '')}`;
  const parts = [`${label}: { pass.touched = true;`];
  if (mode !== 'ignore') {
    // A leaf's parameters never hold a `/`, so a trailing slash is judged by the flags alone.
    const mismatch = candidate.hasTrailingSlash ? '!pass.requestSlash && pass.path !== "/"' : 'pass.requestSlash';
    const onMismatch = mode === 'redirect' && candidate.acceptsGet ? 'if (pass.canonical === "GET") return STOP; ' : '';
    parts.push(`if (${mismatch}) { ${onMismatch}break ${label}; }`);
  }
  const accept = `return routeMatch(${ref}.route, ${paramsExpression(candidate, ref, null)});`;
  if (candidate.methods === null) {
    parts.push(accept);
  } else {
    parts.push(
      `{ const method = pass.method; if (${allowsMethod(candidate.methodList)}) ${accept} }`,
      `pass.methodMismatch = true; if (pass.collect) pass.allow = union(pass.allow, ${ref}.methodList);`,
    );
  }
  parts.push('}');
  return parts.join(' ');
}

/**
 * `endCheck` for the quick walk (the leaf has set `touched`): same decisions on a path known to
 * have no trailing slash. A route with a trailing slash never takes it (a GET for a GET route
 * would be a redirect: STOP). Host and scheme restrictions need the pass: STOP.
 */
function quickEndCheck(candidate: Candidate, ref: string, mode: TrailingSlashMode, offsets: readonly string[]): string {
  if (candidate.hostRegex !== null || candidate.schemes !== null) return 'return STOP;';
  if (mode !== 'ignore' && candidate.hasTrailingSlash) {
    return mode === 'redirect' && candidate.acceptsGet ? 'if (method === "GET" || method === "HEAD") return STOP;' : '';
  }
  const accept = `return routeMatch(${ref}.route, ${paramsExpression(candidate, ref, offsets)});`;
  return candidate.methods === null ? accept : `if (${allowsMethod(candidate.methodList)}) ${accept}`;
}

/**
 * The route's method test on `method`: one of its methods, or HEAD where it allows GET (the
 * reference's check on the method and on its canonical form, GET for HEAD).
 */
function allowsMethod(methods: readonly string[]): string {
  const accepted = methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : methods;
  return accepted.map((m) => `method === ${JSON.stringify(m)}`).join(' || ');
}

/**
 * The params of a leaf's route. Without defaults, an object literal written right here: one
 * allocation the JIT sees whole, instead of a call to the route's own builder. Same rule as the
 * builder (candidate.ts): JSON-quoted names, `__proto__` and very long lists go through it.
 * `offsets`: the quick walk's offset arguments, `null` to read them from the pass.
 */
function paramsExpression(candidate: Candidate, ref: string, offsets: readonly string[] | null): string {
  const names = candidate.pathVariables;
  if (candidate.hasDefaults || names.length > 16 || names.includes('__proto__')) {
    return `${ref}.buildParams(path, ${offsets === null ? 'pass.offsets' : `[${offsets.join(', ')}]`}, ${ref}.defaults)`;
  }
  const slice = (i: number) =>
    offsets === null ? `path.slice(o[${i * 2}], o[${i * 2 + 1}])` : `path.slice(${offsets[i * 2]}, ${offsets[i * 2 + 1]})`;
  const fields = names.map((name, i) => `${JSON.stringify(name)}: ${slice(i)}`);
  return offsets === null ? `(o = pass.offsets, { ${fields.join(', ')} })` : `{ ${fields.join(', ')} }`;
}

/** A condition that the segment starting at `pos + 1` (length already known) equals `text`. */
function compare(text: string): string {
  if (text.length === 0) return 'true';
  if (text.length > INLINE_COMPARE_LIMIT) return `path.startsWith(${JSON.stringify(text)}, pos + 1)`;
  return [...Array(text.length).keys()].map((k) => `path.charCodeAt(pos + ${k + 1}) === ${text.charCodeAt(k)}`).join(' && ');
}
