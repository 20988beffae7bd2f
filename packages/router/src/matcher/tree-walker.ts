import type { Outcome, Pass } from './pass.js';
import { check } from './route-check.js';
import { END, LITERALS, OPAQUE, type TreeNode } from './segment-tree.js';

/**
 * Walks the segment tree as data: the fallback when code generation is not allowed
 * (`--disallow-code-generation-from-strings`); `compileTree` turns the same walk into code.
 */
/** Depth-first over the tree from `node`; `pos` is the offset of the `/` before the next segment (or the end). */
export function walk(node: TreeNode, pos: number, pass: Pass, depth: number): Outcome {
  const path = pass.path;
  const length = path.length;
  const items = node.items;
  let end = -1;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const kind = item.kind;
    if (kind === END) {
      if (pos < length - 1) continue;
      const candidates = item.candidates!;
      for (let j = 0; j < candidates.length; j++) {
        const outcome = check(candidates[j]!, pass, null);
        if (outcome !== undefined) return outcome;
      }
      continue;
    }
    if (kind === OPAQUE) {
      const candidate = item.candidates![0]!;
      const match = candidate.regex.exec(path);
      if (match === null) continue;
      const outcome = check(candidate, pass, match);
      if (outcome !== undefined) return outcome;
      continue;
    }
    if (pos >= length) continue;
    if (end < 0) {
      end = path.indexOf('/', pos + 1);
      if (end < 0) end = length;
    }
    let child: TreeNode | undefined;
    if (kind === LITERALS) {
      const size = end - pos - 1;
      const texts = item.texts![size];
      if (texts !== undefined) {
        for (let j = 0; j < texts.length; j++) {
          if (segmentEquals(path, pos + 1, texts[j]!)) {
            child = item.nodes![size]![j];
            break;
          }
        }
      }
      if (child === undefined) continue;
      const outcome = walk(child, end, pass, depth);
      if (outcome !== undefined) return outcome;
      continue;
    }
    // PARAM: one non-empty segment, checked against its requirement when it has one.
    if (end === pos + 1) continue;
    if (item.test !== null && !item.test.test(path.slice(pos + 1, end))) continue;
    const offsets = pass.offsets;
    offsets[depth * 2] = pos + 1;
    offsets[depth * 2 + 1] = end;
    const outcome = walk(item.child!, end, pass, depth + 1);
    if (outcome !== undefined) return outcome;
  }
  return undefined;
}

/** `path` holds `text` at `start` (same length known); char codes compared inline, cheaper than `startsWith`. */
function segmentEquals(path: string, start: number, text: string): boolean {
  for (let k = 0; k < text.length; k++) if (path.charCodeAt(start + k) !== text.charCodeAt(k)) return false;
  return true;
}

