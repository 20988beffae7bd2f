import { LITERALS, type TreeNode } from './segment-tree.js';
import { compare } from './tree-compiler.js';
import { segmentEquals } from './tree-walker.js';

/** Whether a path's first segment (from index 1 to the next `/`) is one some route starts with. */
export type FirstSegmentTest = (path: string) => boolean;

/**
 * The test `UrlMatcher` runs before allocating anything for a path with no static route: a path
 * whose first segment no route starts with is a 404 at once (the scanner's `/wp-login.php`).
 * `null` when the tree's root has anything but literal children (a parameter, an opaque route,
 * the root route), so any first segment may match.
 *
 * Compiled like the tree (a `switch` on the segment length, inline character comparisons): a
 * loop over the known segments of that length costs a dynamic hit about as much as the walk it
 * guards. The loop stays as the fallback where code generation is not allowed.
 */
export function firstSegmentTest(tree: TreeNode, staticPaths: Iterable<string>, generateCode: boolean): FirstSegmentTest | null {
  const byLength = firstSegmentsByLength(tree, staticPaths);
  if (byLength === null) return null;
  if (generateCode) {
    try {
      return compiled(byLength);
    } catch (error) {
      if (!(error instanceof EvalError)) throw error;
    }
  }
  return (path) => startsWithAny(path, byLength);
}

/** First segments grouped by length (`[3]` = the 3-character ones), or `null` as above. */
function firstSegmentsByLength(tree: TreeNode, staticPaths: Iterable<string>): string[][] | null {
  const segments = new Set<string>();
  for (const item of tree.items) {
    if (item.kind !== LITERALS) return null;
    for (const texts of item.texts!) for (const text of texts ?? []) segments.add(text);
  }
  for (const path of staticPaths) {
    if (path.charCodeAt(0) !== 47) return null;
    segments.add(firstSegment(path));
  }
  const byLength: string[][] = [];
  for (const segment of segments) (byLength[segment.length] ??= []).push(segment);
  return byLength;
}

/** The text between the leading `/` and the next one (`''` for `/`). */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}

function compiled(byLength: readonly (readonly string[] | undefined)[]): FirstSegmentTest {
  const cases: string[] = [];
  byLength.forEach((texts, size) => {
    if (texts !== undefined) cases.push(`case ${size}: return ${texts.map((text) => `(${compare(text)})`).join(' || ')};`);
  });
  // `compare` reads the segment at `pos + 1`: the first segment starts after the leading `/`.
  const source = `"use strict"; return function knownFirstSegment(path) { const pos = 0; let end = path.indexOf("/", 1); if (end < 0) end = path.length; switch (end - 1) { ${cases.join(' ')} } return false; };`;
  return new Function(source)() as FirstSegmentTest;
}

/** The same test by loop: compared in place (no slice) with the segments of the same length. */
function startsWithAny(path: string, byLength: readonly (readonly string[] | undefined)[]): boolean {
  let end = path.indexOf('/', 1);
  if (end < 0) end = path.length;
  const sameLength = byLength[end - 1];
  if (sameLength === undefined) return false;
  for (let i = 0; i < sameLength.length; i++) if (segmentEquals(path, 1, sameLength[i]!)) return true;
  return false;
}
