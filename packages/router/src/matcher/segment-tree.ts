import type { Token } from 'path-to-regexp';
import type { Candidate } from './candidate.js';

/**
 * Every route of the matcher in a tree of path segments whose children are tried in order, so the
 * first leaf reached in depth-first order is the first route in declaration order.
 *
 * A route is inserted by walking down children that equal its next segment. It may only join an
 * existing child when every child after that one is *disjoint* from its segment (no path can
 * reach both), otherwise it starts a new child at the end; this keeps declaration order between
 * routes that can match the same path (Symfony's "static prefix collection" rule).
 * Routes whose segments are not plain (text and one parameter mixed in a segment, optional groups,
 * wildcards, requirements that could span a `/`) become *opaque* items, tested with their own
 * expression at the deepest node their leading literal segments reach.
 */

/** Item kinds. */
export const LITERALS = 0;
export const PARAM = 1;
export const END = 2;
export const OPAQUE = 3;

/** One ordered item of a node (unused fields `null`). */
export interface TreeItem {
  readonly kind: 0 | 1 | 2 | 3;
  /**
   * LITERALS: the segment texts grouped by length (`texts[3]` = the 3-character ones) with their
   * nodes at the same places, so a segment is compared in place with the few texts of its length.
   */
  readonly texts: ReadonlyArray<readonly string[] | undefined> | null;
  readonly nodes: ReadonlyArray<readonly TreeNode[] | undefined> | null;
  /** PARAM: the requirement as a whole-segment test, `null` for the default (any non-empty segment). */
  readonly test: RegExp | null;
  /** PARAM: the name the first route through it gave the parameter (for reading generated code). */
  readonly name: string | null;
  readonly child: TreeNode | null;
  /** END: the routes ending here, in order. OPAQUE: the one route. */
  readonly candidates: readonly Candidate[] | null;
}

export interface TreeNode {
  readonly items: readonly TreeItem[];
}

type Atom =
  | { kind: 'literal'; text: string }
  | { kind: 'param'; key: string; name: string; test: RegExp | null }
  | { kind: 'end' }
  | { kind: 'opaque' };

type BuildChild =
  | { kind: 'literal'; text: string; node: BuildNode }
  | { kind: 'param'; key: string; name: string; test: RegExp | null; node: BuildNode }
  | { kind: 'end'; candidates: Candidate[] }
  | { kind: 'opaque'; candidate: Candidate };

interface BuildNode {
  children: BuildChild[];
}

export class SegmentTreeBuilder {
  readonly #root: BuildNode = { children: [] };
  /** Opaque routes need their own expression run: the matcher must retry toggled slashes for them. */
  opaqueCount = 0;
  /** A literal empty segment (`/a//b`) lets a toggled slash reach new leaves. */
  hasEmptySegment = false;

  add(candidate: Candidate): void {
    const atoms = atomsOf(candidate);
    let node = this.#root;
    for (const atom of atoms) {
      if (atom.kind === 'literal' && atom.text === '') this.hasEmptySegment = true;
      if (atom.kind === 'opaque') {
        this.opaqueCount++;
        node.children.push({ kind: 'opaque', candidate });
        return;
      }
      const existing = joinable(node.children, atom);
      if (existing !== null) {
        if (existing.kind === 'end') {
          existing.candidates.push(candidate);
          return;
        }
        if (existing.kind === 'literal' || existing.kind === 'param') node = existing.node;
        continue;
      }
      if (atom.kind === 'end') {
        node.children.push({ kind: 'end', candidates: [candidate] });
        return;
      }
      const next: BuildNode = { children: [] };
      node.children.push(atom.kind === 'literal' ? { kind: 'literal', text: atom.text, node: next } : { ...atom, node: next });
      node = next;
    }
  }

  build(): TreeNode {
    return freeze(this.#root);
  }
}

/** The child `atom` may join, scanning back from the last child while children are disjoint from it. */
function joinable(children: BuildChild[], atom: Atom): BuildChild | null {
  for (let i = children.length - 1; i >= 0; i--) {
    const child = children[i]!;
    if (same(child, atom)) return child;
    if (!disjoint(child, atom)) return null;
  }
  return null;
}

function same(child: BuildChild, atom: Atom): boolean {
  if (child.kind === 'literal') return atom.kind === 'literal' && atom.text === child.text;
  if (child.kind === 'param') return atom.kind === 'param' && atom.key === child.key;
  return child.kind === 'end' && atom.kind === 'end';
}

/** True when no path can reach both (the position in the path is the same for both: segments are `/`-delimited). */
function disjoint(child: BuildChild, atom: Atom): boolean {
  if (child.kind === 'opaque' || atom.kind === 'opaque') return false;
  const a = child.kind === 'literal' ? ({ kind: 'literal', text: child.text } as const) : child;
  return disjointAtoms(a, atom) || disjointAtoms(atom, a);
}

function disjointAtoms(a: Atom | BuildChild, b: Atom): boolean {
  if (a.kind === 'literal' && b.kind === 'literal') return a.text !== b.text;
  // A parameter needs a non-empty segment; an end needs no segment at all.
  if (a.kind === 'literal' && b.kind === 'end') return a.text !== '';
  if (a.kind === 'literal' && b.kind === 'param') return a.text === '' || (b.test !== null && !b.test.test(a.text));
  if (a.kind === 'param' && b.kind === 'end') return true;
  return false;
}

function freeze(node: BuildNode): TreeNode {
  const items: TreeItem[] = [];
  let literals: Array<[string, TreeNode]> | null = null;
  const flush = () => {
    if (literals === null) return;
    const texts: string[][] = [];
    const nodes: TreeNode[][] = [];
    for (const [text, child] of literals) {
      (texts[text.length] ??= []).push(text);
      (nodes[text.length] ??= []).push(child);
    }
    items.push(item(LITERALS, { texts, nodes }));
    literals = null;
  };
  for (const child of node.children) {
    if (child.kind === 'literal') {
      (literals ??= []).push([child.text, freeze(child.node)]);
      continue;
    }
    flush();
    if (child.kind === 'param') items.push(item(PARAM, { test: child.test, name: child.name, child: freeze(child.node) }));
    else if (child.kind === 'end') items.push(item(END, { candidates: child.candidates }));
    else items.push(item(OPAQUE, { candidates: [child.candidate] }));
  }
  flush();
  return { items };
}

function item(kind: TreeItem['kind'], fields: Partial<Omit<TreeItem, 'kind'>>): TreeItem {
  return {
    kind,
    texts: fields.texts ?? null,
    nodes: fields.nodes ?? null,
    test: fields.test ?? null,
    name: fields.name ?? null,
    child: fields.child ?? null,
    candidates: fields.candidates ?? null,
  };
}

/** The route's path as tree atoms: one per segment then `end`, or leading literal segments then `opaque`. */
function atomsOf(candidate: Candidate): Atom[] {
  const core = candidate.route.compiled.core;
  const segments = plainSegments(core.tokens, core.requirements);
  if (segments !== null) return [...segments, { kind: 'end' }];
  return [...literalPrefix(core.tokens), { kind: 'opaque' }];
}

/** Segments of a path made of `/`-separated literal text and whole-segment parameters, else `null`. */
function plainSegments(tokens: readonly Token[], requirements: Readonly<Record<string, string>>): Atom[] | null {
  if (tokens.length === 0) return [];
  const atoms: Atom[] = [];
  let current: Atom | null = null;
  let mixed = false;
  let started = false;
  for (const token of tokens) {
    if (token.type === 'text') {
      const parts = token.value.split('/');
      parts.forEach((part, i) => {
        if (i > 0) {
          if (started) {
            if (mixed) return;
            atoms.push(current ?? { kind: 'literal', text: '' });
          }
          started = true;
          current = part === '' ? null : { kind: 'literal', text: part };
          return;
        }
        if (part === '') return;
        if (!started || current !== null) mixed = true;
        else current = { kind: 'literal', text: part };
      });
      if (mixed) return null;
      continue;
    }
    if (token.type !== 'param' || !started || current !== null) return null;
    const requirement = requirements[token.name]!;
    const test = segmentSafeTest(requirement);
    if (test === undefined) return null;
    current = { kind: 'param', key: requirement, name: token.name, test };
  }
  if (mixed) return null;
  atoms.push(current ?? { kind: 'literal', text: '' });
  return atoms;
}

/**
 * A test for a requirement that provably matches only non-empty text without `/`; `null` for the
 * default `[^/]+`; `undefined` when the requirement may span segments (the route goes opaque).
 */
function segmentSafeTest(requirement: string): RegExp | null | undefined {
  if (requirement === '[^\\/]+') return null;
  if (!/^[\w\\[\]{}|()?:+*,-]+$/.test(requirement)) return undefined;
  if (/\\[^dw]/.test(requirement)) return undefined;
  for (const klass of requirement.match(/\[[^\]]*\]/g) ?? []) {
    if (!/^\[(?:\\[dw]|[A-Za-z0-9_](?:-[A-Za-z0-9_])?|-)*\]$/.test(klass)) return undefined;
  }
  const test = new RegExp(`^(?:${requirement})$`);
  return test.test('') ? undefined : test;
}

/** The complete literal segments at the start of a pattern (those a `/` closes before any parameter or group). */
function literalPrefix(tokens: readonly Token[]): Atom[] {
  let text = '';
  for (const token of tokens) {
    if (token.type !== 'text') break;
    text += token.value;
  }
  const closed = text.slice(0, text.lastIndexOf('/') + 1);
  if (!closed.startsWith('/')) return [];
  return closed
    .slice(1, -1)
    .split('/')
    .filter((_, i, all) => all.length > 1 || all[0] !== '' || i > 0)
    .map((part) => ({ kind: 'literal', text: part }));
}
