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
    const size = this.#stack.length;
    return size === 0 ? null : this.#stack[size - 1]!;
  }

  getMainRequest(): Request | null {
    return this.#stack.length === 0 ? null : this.#stack[0]!;
  }

  /** The request below the current one; `null` while the main request is current. */
  getParentRequest(): Request | null {
    const size = this.#stack.length;
    return size < 2 ? null : this.#stack[size - 2]!;
  }

  get size(): number {
    return this.#stack.length;
  }
}
