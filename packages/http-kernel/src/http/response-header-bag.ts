import { adoptPairs, HeaderBag, indexOfName, ownPairs, valuesNamed, type HeaderInit, type HeaderValue } from './header-bag.js';
import { httpDate } from './http-date.js';

/** Nothing stated: a cache must ask before reusing the response, and a shared cache must not keep it. */
const NOTHING_STATED = 'no-cache, private';
/** Nothing stated, but `Last-Modified` or `Expires` present: a private cache may keep it and revalidates. */
const NOTHING_STATED_WITH_VALIDATOR = 'private, must-revalidate';
/** The directives that already say who may cache; a stated value without one of them gets `private`. */
const SCOPE_DIRECTIVES = new Set(['public', 'private', 's-maxage']);

/**
 * A new response's headers: `Date`, the one or two headers given, and the default
 * `Cache-Control`, made at once as one list of its exact length. The names must be lower-case,
 * distinct, and none of `Date`, `Cache-Control`, `Last-Modified` or `Expires`. For the answers
 * every request may get (JSON, views, error pages); `@switchboard/http-kernel/internal`.
 */
export let defaultResponseHeaders: (name?: string, value?: string, secondName?: string, secondValue?: string) => ResponseHeaderBag;

/**
 * A response's headers. `Date` is there from the start (now, unless the headers given name one).
 * `Cache-Control` is always there and follows what the response's code
 * stated: nothing → `no-cache, private` (`private, must-revalidate` once `Last-Modified` or
 * `Expires` is set); directives without `public`, `private` or `s-maxage` → `private` added. A
 * response is therefore never kept by a shared cache unless something said so on purpose.
 *
 * The value is written into the list whenever `Cache-Control`, `Last-Modified` or `Expires`
 * changes, so reading it, and writing the response, cost what any other header costs.
 * `statedCacheControl` tells what was stated before the rule applied.
 */
export class ResponseHeaderBag extends HeaderBag {
  /** Set only while `defaultResponseHeaders` builds a bag: the list it takes as is. */
  static #pairs: string[] | null = null;

  static {
    defaultResponseHeaders = (name, value = '', secondName, secondValue = '') => {
      ResponseHeaderBag.#pairs =
        name === undefined
          ? ['date', httpDate(), 'cache-control', NOTHING_STATED]
          : secondName === undefined
            ? ['date', httpDate(), name, value, 'cache-control', NOTHING_STATED]
            : ['date', httpDate(), name, value, secondName, secondValue, 'cache-control', NOTHING_STATED];
      return new ResponseHeaderBag();
    };
  }

  #stated: string | undefined;

  constructor(init?: HeaderInit) {
    super(init);
    const pairs = ResponseHeaderBag.#pairs;
    if (pairs !== null) {
      ResponseHeaderBag.#pairs = null;
      // Nothing stated: `#stated` stays undefined.
      adoptPairs(this, pairs);
      return;
    }
    const list = ownPairs(this);
    if (init instanceof ResponseHeaderBag) this.#stated = init.#stated;
    else if (indexOfName(list, 'cache-control') !== -1) this.#stated = statedValue(valuesNamed(list, 'cache-control'));
    this.#writeCacheControl();
    if (indexOfName(list, 'date') === -1) list.push('date', httpDate());
  }

  /**
   * The `Cache-Control` the response's code stated, before the default rule applied; `undefined`
   * when nothing was stated (the header then holds the default).
   */
  get statedCacheControl(): string | undefined {
    return this.#stated;
  }

  override set(name: string, value: HeaderValue | number): this {
    const kind = cachingHeaderOf(name);
    if (kind === 'cache-control') return this.#state(statedValue(valuesOf(value)));
    super.set(name, value);
    if (kind === 'validator') this.#validatorsChanged();
    return this;
  }

  override append(name: string, value: HeaderValue | number): this {
    const kind = cachingHeaderOf(name);
    if (kind === 'cache-control') {
      const added = statedValue(valuesOf(value));
      return this.#state(this.#stated === undefined || added === undefined ? (added ?? this.#stated) : `${this.#stated}, ${added}`);
    }
    super.append(name, value);
    if (kind === 'validator') this.#validatorsChanged();
    return this;
  }

  override delete(name: string): this {
    const kind = cachingHeaderOf(name);
    if (kind === 'cache-control') return this.#state(undefined);
    super.delete(name);
    if (kind === 'validator') this.#validatorsChanged();
    return this;
  }

  #state(stated: string | undefined): this {
    this.#stated = stated;
    this.#writeCacheControl();
    return this;
  }

  /** `Last-Modified` or `Expires` changed: the default depends on them, a stated value does not. */
  #validatorsChanged(): void {
    if (this.#stated === undefined) this.#writeCacheControl();
  }

  /** Writes the rule's value in place, on the bag's own lower-case list: no name to fold. */
  #writeCacheControl(): void {
    const list = ownPairs(this);
    const value = this.#stated === undefined ? defaultFor(list) : withScope(this.#stated);
    const at = indexOfName(list, 'cache-control');
    if (at === -1) list.push('cache-control', value);
    else if (list[at + 2] !== 'cache-control') list[at + 1] = value;
    // Several values (given to the constructor): one, in their place.
    else super.set('cache-control', value);
  }
}

function defaultFor(list: readonly string[]): string {
  return indexOfName(list, 'last-modified') === -1 && indexOfName(list, 'expires') === -1 ? NOTHING_STATED : NOTHING_STATED_WITH_VALIDATOR;
}

function withScope(stated: string): string {
  const names = stated.split(',').map((directive) => directive.split('=')[0]!.trim().toLowerCase());
  return names.some((name) => SCOPE_DIRECTIVES.has(name)) ? stated : `${stated}, private`;
}

/**
 * Which of the headers the `Cache-Control` rule reads `name` is, if any. Their lengths (13 and 7)
 * rule out most names before any case folding: this runs on every write to a response's headers.
 */
function cachingHeaderOf(name: string): 'cache-control' | 'validator' | null {
  if (name.length !== 13 && name.length !== 7) return null;
  const key = name.toLowerCase();
  if (key === 'cache-control') return 'cache-control';
  return key === 'last-modified' || key === 'expires' ? 'validator' : null;
}

function valuesOf(value: HeaderValue | number): readonly string[] {
  return typeof value === 'object' ? value : [typeof value === 'number' ? String(value) : value];
}

/** Several values as one list of directives; nothing but blanks is nothing stated. */
function statedValue(values: readonly string[]): string | undefined {
  const joined = values.join(', ').trim();
  return joined === '' ? undefined : joined;
}
