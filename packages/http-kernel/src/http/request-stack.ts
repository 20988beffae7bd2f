/**
 * A stack of the requests being handled: the main request at the bottom, the current sub-request
 * on top. Written for any request type: a `Request` makes the stack it is handled on, so this file
 * cannot name it without the two importing each other; `RequestStack` (request.ts) is this stack
 * of `Request`s.
 */
export class StackOfRequests<TRequest> {
  readonly #stack: TRequest[] = [];

  push(request: TRequest): void {
    this.#stack.push(request);
  }

  pop(): TRequest | undefined {
    return this.#stack.pop();
  }

  getCurrentRequest(): TRequest | null {
    const size = this.#stack.length;
    return size === 0 ? null : this.#stack[size - 1]!;
  }

  getMainRequest(): TRequest | null {
    return this.#stack.length === 0 ? null : this.#stack[0]!;
  }

  /** The request below the current one; `null` while the main request is current. */
  getParentRequest(): TRequest | null {
    const size = this.#stack.length;
    return size < 2 ? null : this.#stack[size - 2]!;
  }

  get size(): number {
    return this.#stack.length;
  }
}
