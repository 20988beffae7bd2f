/** The requests a fetch handler is working on, from their arrival to the end of their `kernel.terminate`. */
export class InFlightFetches {
  #count = 0;
  #whenIdle: Array<() => void> = [];
  #draining = false;

  /** Whether `drain()` was called: new requests are refused from then on. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Counts a request in; the returned function counts it out (a second call does nothing). */
  begin(): () => void {
    this.#count++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#count--;
      if (this.#count === 0) for (const resolve of this.#whenIdle.splice(0)) resolve();
    };
  }

  /** Marks the start of a shutdown and resolves once no request is in flight (at once when none is). */
  drain(): Promise<void> {
    this.#draining = true;
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => this.#whenIdle.push(resolve));
  }
}
