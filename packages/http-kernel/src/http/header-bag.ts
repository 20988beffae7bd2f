/**
 * Makes `pairs` the bag's own list: names lower-case, each name's values next to each other. For
 * the headers every response starts with, set without a lookup per name. Kernel-internal: not
 * exported by the package.
 */
export let adoptPairs: (bag: HeaderBag, pairs: string[]) => void;

/** The bag's own list, to change in place (it no longer matches a raw list). Kernel-internal. */
export let ownPairs: (bag: HeaderBag) => string[];

export type HeaderValue = string | readonly string[];
export type HeaderInit = HeaderBag | Iterable<readonly [string, HeaderValue]> | Readonly<Record<string, HeaderValue | number | undefined>>;

/**
 * Case-insensitive, multi-valued headers. Names are stored lower-cased (as HTTP/2 and
 * node:http present them); values keep their order.
 *
 * Kept as a flat list `[name, value, name, value…]`, the shape node:http's `writeHead` takes, with
 * all the values of a name next to each other, in the order names were first added: a response's
 * few headers need no map, and writing them is one copy of the list (docs/decisions.md D15).
 */
export class HeaderBag implements Iterable<[string, string[]]> {
  static {
    adoptPairs = (bag, pairs) => {
      bag.#list = pairs;
      bag.#raw = null;
    };
    ownPairs = (bag) => bag.#toChange();
  }

  /** The bag's own list, names lower-cased; made on the first write (or the first read of a raw list that needs it). */
  #list: string[] | null;
  /**
   * The raw list this bag holds exactly, until its first write: a copy made before then reads
   * the same list on its own first use instead of copying it (an error sub-request copies its
   * request's headers, and mostly reads one of them).
   */
  #raw: readonly string[] | null;

  constructor(init?: HeaderInit) {
    this.#list = null;
    this.#raw = null;
    if (init === undefined) return;
    if (init instanceof HeaderBag) {
      // A bag still equal to its raw list (or never used at all) is copied by sharing that list.
      if (init.#list === null) this.#raw = init.#raw;
      else this.#list = init.#list.slice();
      return;
    }
    // Through #add, not `append`: a subclass's own fields do not exist yet while this runs.
    if (Symbol.iterator in init) {
      for (const [name, value] of init as Iterable<readonly [string, HeaderValue]>) this.#add(name, value);
      return;
    }
    const record = init as Readonly<Record<string, HeaderValue | number | undefined>>;
    for (const name of Object.keys(record)) {
      const value = record[name];
      if (value !== undefined) this.#add(name, value);
    }
  }

  /**
   * Headers from a flat raw list `[name, value, name, value…]` (node's `rawHeaders`), names in any
   * case; HTTP/2 pseudo-headers (`:path`…) are left out. The list is read on first use, not
   * before: many requests are answered without anyone reading their headers. It must not change
   * afterwards (node never changes `rawHeaders`).
   */
  static fromRawList(raw: readonly string[]): HeaderBag {
    const bag = new HeaderBag();
    bag.#raw = raw;
    return bag;
  }

  /** The bag's own list, made from the raw list (names lower-cased, grouped, pseudo-headers out) if need be. */
  #own(): string[] {
    if (this.#list !== null) return this.#list;
    const list: string[] = [];
    const raw = this.#raw;
    if (raw !== null) {
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!;
        if (name.charCodeAt(0) === 58 /* ':' */) continue;
        insertAfterRun(list, name.toLowerCase(), raw[i + 1]!);
      }
    }
    this.#list = list;
    return list;
  }

  /** The list, about to be changed: from now on the bag no longer matches its raw list. */
  #toChange(): string[] {
    const list = this.#own();
    this.#raw = null;
    return list;
  }

  /** The first value, or `undefined`. */
  get(name: string): string | undefined {
    const key = name.toLowerCase();
    // A bag still equal to its raw list answers from the list: most requests read a header or two.
    if (this.#list === null) return this.#raw === null ? undefined : firstRawValue(this.#raw, key);
    const at = indexOfName(this.#list, key);
    return at === -1 ? undefined : this.#list[at + 1];
  }

  /** Every value in order (empty when absent). */
  getAll(name: string): string[] {
    const key = name.toLowerCase();
    // As `get`: a bag still equal to its raw list answers from it, without making its own list.
    if (this.#list === null) return this.#raw === null ? [] : rawValues(this.#raw, key);
    return valuesNamed(this.#list, key);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Replaces every value of `name`. */
  set(name: string, value: HeaderValue | number): this {
    const list = this.#toChange();
    const key = name.toLowerCase();
    const at = indexOfName(list, key);
    if (at === -1) pushValues(list, key, value);
    else {
      list.splice(at, runLength(list, at));
      if (typeof value === 'object') for (let i = value.length - 1; i >= 0; i--) list.splice(at, 0, key, value[i]!);
      else list.splice(at, 0, key, typeof value === 'number' ? String(value) : value);
    }
    return this;
  }

  append(name: string, value: HeaderValue | number): this {
    this.#add(name, value);
    return this;
  }

  #add(name: string, value: HeaderValue | number): void {
    const list = this.#toChange();
    const key = name.toLowerCase();
    if (typeof value === 'object') for (const one of value) insertAfterRun(list, key, one);
    else insertAfterRun(list, key, typeof value === 'number' ? String(value) : value);
  }

  delete(name: string): this {
    const list = this.#toChange();
    const at = indexOfName(list, name.toLowerCase());
    if (at !== -1) list.splice(at, runLength(list, at));
    return this;
  }

  get size(): number {
    const list = this.#own();
    let size = 0;
    for (let i = 0; i < list.length; i += 2) if (i === 0 || list[i] !== list[i - 2]) size++;
    return size;
  }

  names(): string[] {
    const list = this.#own();
    const names: string[] = [];
    for (let i = 0; i < list.length; i += 2) if (i === 0 || list[i] !== list[i - 2]) names.push(list[i]!);
    return names;
  }

  /** Each name with its values, in the order names were first added. */
  *[Symbol.iterator](): IterableIterator<[string, string[]]> {
    const list = this.#own();
    for (let i = 0; i < list.length; ) {
      const name = list[i]!;
      const values: string[] = [];
      for (; i < list.length && list[i] === name; i += 2) values.push(list[i + 1]!);
      yield [name, values];
    }
  }

  /**
   * A flat raw list `[name, value, name, value…]`, a multi-valued header as several pairs (the
   * shape node:http's `writeHead` takes), without the names in `omit`, and with one more pair at
   * the end when `extraName` is given. Made at its final length.
   */
  toRawList(omit?: ReadonlySet<string>, extraName?: string, extraValue?: string): string[] {
    const list = this.#own();
    let length = extraName === undefined ? list.length : list.length + 2;
    if (omit !== undefined) for (let i = 0; i < list.length; i += 2) if (omit.has(list[i]!)) length -= 2;
    const out = new Array<string>(length);
    let at = 0;
    for (let i = 0; i < list.length; i += 2) {
      if (omit?.has(list[i]!)) continue;
      out[at++] = list[i]!;
      out[at++] = list[i + 1]!;
    }
    if (extraName !== undefined) {
      out[at++] = extraName;
      out[at] = extraValue ?? '';
    }
    return out;
  }

  /**
   * The flat list to write once the headers are final. When no name in `omit` other than `name` is
   * in it, the bag's own list with `name` (lower-case) set to `value`: the bag then holds the header
   * written. Otherwise a copy without the names in `omit` and with `name` added (`toRawList`).
   */
  toSentList(omit: ReadonlySet<string>, name?: string, value = ''): readonly string[] {
    const list = this.#own();
    for (let i = 0; i < list.length; i += 2) if (omit.has(list[i]!) && list[i] !== name) return this.toRawList(omit, name, value);
    if (name === undefined) return list;
    if (indexOfName(list, name) !== -1) {
      // `set` changes the list in place: it stays the one to send.
      this.set(name, value);
      return list;
    }
    // A copy of the exact length with the header added, which the bag keeps from now on: a push
    // would allocate a larger store with room to grow, for a list that grows no more.
    const sent = this.toRawList(undefined, name, value);
    this.#list = sent;
    this.#raw = null;
    return sent;
  }

  /** A plain object, multi-valued names as arrays (the shape node:http's `setHeader` takes). */
  toObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [name, values] of this) out[name] = values.length === 1 ? values[0]! : values;
    return out;
  }
}

/** Index of the first pair named `key` (lower-case) in an own list, or -1. */
export function indexOfName(list: readonly string[], key: string): number {
  for (let i = 0; i < list.length; i += 2) if (list[i] === key) return i;
  return -1;
}

/** The values of the pairs named `key` (lower-case) in an own list, whose values of one name are next to each other. */
export function valuesNamed(list: readonly string[], key: string): string[] {
  const values: string[] = [];
  for (let i = indexOfName(list, key); i !== -1 && i < list.length && list[i] === key; i += 2) values.push(list[i + 1]!);
  return values;
}

/** How many entries (names and values) the run of pairs starting at `at` takes. */
function runLength(list: readonly string[], at: number): number {
  const key = list[at];
  let end = at;
  while (end < list.length && list[end] === key) end += 2;
  return end - at;
}

/** `key: value` after the last pair named `key`, or at the end: a name's values stay together. */
function insertAfterRun(list: string[], key: string, value: string): void {
  const at = indexOfName(list, key);
  if (at === -1) {
    list.push(key, value);
    return;
  }
  const end = at + runLength(list, at);
  if (end === list.length) list.push(key, value);
  else list.splice(end, 0, key, value);
}

function pushValues(list: string[], key: string, value: HeaderValue | number): void {
  if (typeof value === 'object') for (const one of value) list.push(key, one);
  else list.push(key, typeof value === 'number' ? String(value) : value);
}

/** The values of every field named `key` (lower-case) in a raw list, in order; pseudo-headers never match. */
function rawValues(raw: readonly string[], key: string): string[] {
  const values: string[] = [];
  if (key.charCodeAt(0) === 58 /* ':' */) return values;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === key.length && name.toLowerCase() === key) values.push(raw[i + 1]!);
  }
  return values;
}

/** The value of the first field named `key` (lower-case) in a raw list; pseudo-headers never match. */
function firstRawValue(raw: readonly string[], key: string): string | undefined {
  if (key.charCodeAt(0) === 58 /* ':' */) return undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === key.length && name.toLowerCase() === key) return raw[i + 1];
  }
  return undefined;
}
