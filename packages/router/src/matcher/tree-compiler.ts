import type { Candidate } from './candidate.js';
import { STOP, type Outcome, type Pass } from './pass.js';
import { routeMatch, type TrailingSlashMode } from './match-result.js';
import { check, union } from './route-check.js';
import { END, LITERALS, OPAQUE, type TreeItem, type TreeNode } from './segment-tree.js';
import { segmentEquals, walk } from './tree-walker.js';

/** Matches a decoded path against the tree: the first accepting route in order, STOP, or nothing. */
export type TreeMatcher = (path: string, pos: number, pass: Pass) => Outcome;

/**
 * The subtree a path's first segment leads to, to be called with `pos` at the end of that segment;
 * `undefined` when no route starts with it. Only for trees whose root holds nothing but literal
 * segments (see `CompiledTree.enter`).
 */
export type TreeEntry = (path: string) => TreeMatcher | undefined;

export interface CompiledTree {
  /** The whole walk, from the root. */
  readonly match: TreeMatcher;
  /**
   * The root's switch on its own: `UrlMatcher` runs it before allocating anything for the
   * request, so a path no route starts with is a 404 at once (the scanner's `/wp-login.php`)
   * and a hit does not compare its first segment twice. `null` when the root has anything
   * but literal children (a parameter, an opaque route, the root route).
   */
  readonly enter: TreeEntry | null;
}

/** Literal segments up to this length are compared char by char in the generated code. */
const INLINE_COMPARE_LIMIT = 12;

/**
 * Turns the segment tree into JavaScript — one small function per node, literal children as a
 * `switch` on the segment length and inline character comparisons — the way the reference dumps
 * its matcher to PHP. Same walk as `tree-walker.ts`, without interpreting the tree at run time.
 * Falls back to that interpreter where code generation from strings is disallowed.
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

/** The root of a tree whose only item is one group of literal segments, else `null`. */
function rootLiterals(tree: TreeNode): TreeItem | null {
  return tree.items.length === 1 && tree.items[0]!.kind === LITERALS ? tree.items[0]! : null;
}

function interpreted(tree: TreeNode): CompiledTree {
  const match: TreeMatcher = (path, pos, pass) => walk(tree, pos, pass, 0);
  const root = rootLiterals(tree);
  if (root === null) return { match, enter: tree.items.length === 0 ? () => undefined : null };
  const subtrees = root.nodes!.map((nodes) => nodes?.map((node): TreeMatcher => (path, pos, pass) => walk(node, pos, pass, 0)));
  const enter: TreeEntry = (path) => {
    let end = path.indexOf('/', 1);
    if (end < 0) end = path.length;
    const texts = root.texts![end - 1];
    if (texts === undefined) return undefined;
    for (let j = 0; j < texts.length; j++) if (segmentEquals(path, 1, texts[j]!)) return subtrees[end - 1]![j];
    return undefined;
  };
  return { match, enter };
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

  /** The root's literal children: `[size][j]` = the function name of `texts[size][j]`'s subtree. */
  const rootChildren: string[][] = [];

  const emitNode = (node: TreeNode, depth: number): string => {
    const name = `n${nextId++}`;
    const lines: string[] = [`function ${name}(path, pos, pass) {`, 'const length = path.length; let end = -1; let r; let o;'];
    const segmentEnd = 'if (end < 0) { end = path.indexOf("/", pos + 1); if (end < 0) end = length; }';
    for (const item of node.items) {
      if (item.kind === END) {
        const checks = item.candidates!.map((c) => endCheck(c, candidateRef(c), mode));
        lines.push(`if (pos >= length - 1) { ${checks.join(' ')} }`);
      } else if (item.kind === OPAQUE) {
        const ref = candidateRef(item.candidates![0]!);
        lines.push(`{ const m = ${ref}.regex.exec(path); if (m !== null) { r = check(${ref}, pass, m); if (r !== undefined) return r; } }`);
      } else if (item.kind === LITERALS) {
        const cases: string[] = [];
        item.texts!.forEach((texts, size) => {
          if (texts === undefined) return;
          const branches = texts.map((text, j) => {
            const child = emitNode(item.nodes![size]![j]!, depth);
            if (node === tree) (rootChildren[size] ??= [])[j] = child;
            return `if (${compare(text)}) { r = ${child}(path, end, pass); if (r !== undefined) return r; break; }`;
          });
          cases.push(`case ${size}: ${branches.join(' ')} break;`);
        });
        lines.push(`if (pos < length) { ${segmentEnd} switch (end - pos - 1) { ${cases.join(' ')} } }`);
      } else {
        const child = emitNode(item.child!, depth + 1);
        const test = item.test === null ? '' : ` && T[${tests.push(item.test) - 1}].test(path.slice(pos + 1, end))`;
        lines.push(
          `if (pos < length) { ${segmentEnd} if (end !== pos + 1${test}) { o = pass.offsets; o[${depth * 2}] = pos + 1; o[${depth * 2 + 1}] = end; r = ${child}(path, end, pass); if (r !== undefined) return r; } }`,
        );
      }
    }
    lines.push('return undefined;', '}');
    functions.push(lines.join('\n'));
    return name;
  };

  const root = emitNode(tree, 0);
  const source = `"use strict";\n${functions.join('\n')}\nreturn { match: ${root}, enter: ${enterSource(tree, rootChildren)} };`;
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
  const accept = `return routeMatch(${ref}.route, ${paramsExpression(candidate, ref)});`;
  if (candidate.methods === null) {
    parts.push(accept);
  } else {
    const allowed = candidate.methodList.map((m) => `c === ${JSON.stringify(m)} || m === ${JSON.stringify(m)}`).join(' || ');
    parts.push(
      `{ const c = pass.canonical; const m = pass.method; if (${allowed}) ${accept} }`,
      `pass.methodMismatch = true; if (pass.collect) pass.allow = union(pass.allow, ${ref}.methodList);`,
    );
  }
  parts.push('}');
  return parts.join(' ');
}

/** `enter` as generated code: the root's switch returning the subtree instead of walking it. */
function enterSource(tree: TreeNode, rootChildren: readonly (readonly string[] | undefined)[]): string {
  const root = rootLiterals(tree);
  if (root === null) return tree.items.length === 0 ? '() => undefined' : 'null';
  const cases: string[] = [];
  root.texts!.forEach((texts, size) => {
    if (texts === undefined) return;
    const branches = texts.map((text, j) => `if (${compare(text)}) return ${rootChildren[size]![j]};`);
    cases.push(`case ${size}: ${branches.join(' ')} break;`);
  });
  // `compare` reads the segment at `pos + 1`: the first segment starts after the leading `/`.
  return `function enter(path) { const pos = 0; let end = path.indexOf("/", 1); if (end < 0) end = path.length; switch (end - 1) { ${cases.join(' ')} } return undefined; }`;
}

/**
 * The params of a leaf's route. Without defaults, an object literal written right here: one
 * allocation the JIT sees whole, instead of a call to the route's own builder. Same rule as the
 * builder (candidate.ts): JSON-quoted names, `__proto__` and very long lists go through it.
 */
function paramsExpression(candidate: Candidate, ref: string): string {
  const names = candidate.pathVariables;
  if (candidate.hasDefaults || names.length > 16 || names.includes('__proto__')) {
    return `${ref}.buildParams(path, pass.offsets, ${ref}.defaults)`;
  }
  const fields = names.map((name, i) => `${JSON.stringify(name)}: path.slice(o[${i * 2}], o[${i * 2 + 1}])`);
  return `(o = pass.offsets, { ${fields.join(', ')} })`;
}

/** A condition that the segment starting at `pos + 1` (length already known) equals `text`. */
function compare(text: string): string {
  if (text.length === 0) return 'true';
  if (text.length > INLINE_COMPARE_LIMIT) return `path.startsWith(${JSON.stringify(text)}, pos + 1)`;
  return [...Array(text.length).keys()].map((k) => `path.charCodeAt(pos + ${k + 1}) === ${text.charCodeAt(k)}`).join(' && ');
}
