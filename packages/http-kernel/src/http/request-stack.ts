import type { Request } from './request.js';

/** The requests being handled: the main request at the bottom, the current sub-request on top. */
export class RequestStack {
  readonly #stack: Request[] = [];

  push(request: Request): void {
    this.#stack.push(request);
  }

  pop(): Request | undefined {
    return this.#stack.pop();
  }

  getCurrentRequest(): Request | null {
    return this.#stack[this.#stack.length - 1] ?? null;
  }

  getMainRequest(): Request | null {
    return this.#stack[0] ?? null;
  }

  /** The request below the current one; `null` while the main request is current. */
  getParentRequest(): Request | null {
    return this.#stack[this.#stack.length - 2] ?? null;
  }

  get size(): number {
    return this.#stack.length;
  }
}
