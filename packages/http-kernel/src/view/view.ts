import type { HeaderInit } from '../http/header-bag.js';

export interface ViewOptions {
  /** Default 200. */
  readonly status?: number;
  /** Headers of the answer, besides the `Content-Type` its format sets. */
  readonly headers?: HeaderInit;
}

/**
 * What a controller returns to have its data answered in the format the client prefers (the
 * `ViewListener`), with a status or headers of its own. Plain data is a view with status 200.
 */
export class View<T = unknown> {
  readonly status: number;
  readonly headers: HeaderInit | undefined;

  constructor(
    readonly data: T,
    options: ViewOptions = {},
  ) {
    this.status = options.status ?? 200;
    this.headers = options.headers;
  }
}

/** `return view(created, { status: 201, headers: { location } })` from a controller. */
export function view<T>(data: T, options?: ViewOptions): View<T> {
  return new View(data, options);
}
