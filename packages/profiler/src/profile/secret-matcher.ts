/**
 * Finds every occurrence of any of many strings in one pass over a text (an Aho–Corasick
 * automaton over UTF-16 code units): built in time proportional to the strings' total length,
 * each text read once whatever their number — a request's thousand query values cost no more per
 * character than one.
 */
export class SecretMatcher {
  /** Per node: the node reached by each next code unit. Node 0 is the root. */
  readonly #next: Array<Map<number, number>> = [new Map()];
  /** Per node: the node of its longest proper suffix that is also a prefix of a string. */
  readonly #fallback: number[] = [0];
  /** Per node: the length of the longest string ending here (itself or through its fallbacks); 0 for none. */
  readonly #longest: number[] = [0];
  readonly #size: number;

  constructor(strings: Iterable<string>) {
    let size = 0;
    for (const text of strings) {
      if (text === '') continue;
      size++;
      let node = 0;
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        let child = this.#next[node]!.get(unit);
        if (child === undefined) {
          child = this.#next.length;
          this.#next.push(new Map());
          this.#fallback.push(0);
          this.#longest.push(0);
          this.#next[node]!.set(unit, child);
        }
        node = child;
      }
      this.#longest[node] = text.length;
    }
    this.#size = size;
    this.#linkFallbacks();
  }

  /** How many strings it looks for. */
  get size(): number {
    return this.#size;
  }

  /**
   * `text` with each stretch covered by occurrences of the strings replaced by `replacement`:
   * overlapping occurrences are one stretch, so no part of any of them is left.
   */
  replace(text: string, replacement: string): string {
    if (this.#size === 0) return text;
    // Stretches as [start, end) pairs, in order; each occurrence found merges with those it overlaps.
    const starts: number[] = [];
    const ends: number[] = [];
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.#step(node, text.charCodeAt(i));
      const length = this.#longest[node]!;
      if (length === 0) continue;
      let start = i + 1 - length;
      while (ends.length > 0 && ends[ends.length - 1]! > start) {
        start = Math.min(start, starts.pop()!);
        ends.pop();
      }
      starts.push(start);
      ends.push(i + 1);
    }
    if (starts.length === 0) return text;
    let out = '';
    let copied = 0;
    for (let k = 0; k < starts.length; k++) {
      out += text.slice(copied, starts[k]) + replacement;
      copied = ends[k]!;
    }
    return out + text.slice(copied);
  }

  #step(from: number, unit: number): number {
    let node = from;
    for (;;) {
      const next = this.#next[node]!.get(unit);
      if (next !== undefined) return next;
      if (node === 0) return 0;
      node = this.#fallback[node]!;
    }
  }

  /** Breadth first from the root's children (whose fallback is the root): a node's fallback comes from its parent's, already linked. */
  #linkFallbacks(): void {
    const queue: number[] = [...this.#next[0]!.values()];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (const [unit, child] of this.#next[node]!) {
        const fallback = this.#step(this.#fallback[node]!, unit);
        this.#fallback[child] = fallback;
        this.#longest[child] = Math.max(this.#longest[child]!, this.#longest[fallback]!);
        queue.push(child);
      }
    }
  }
}
