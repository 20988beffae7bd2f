/** One waiter for the turn: started when the turn is its, or dropped when it gave up. */
interface Waiter {
  start(): void;
}

/**
 * Runs one piece of work at a time, in arrival order; a piece that waited longer than its bound
 * for its turn gives up (the `onTimeout` error) and leaves the line, so nothing runs for a request
 * that has already been answered.
 */
export class TurnQueue {
  #busy = false;
  readonly #waiting: Waiter[] = [];

  /** `timeoutMs: null` waits as long as it takes (closing waits for the work before it). */
  async run<R>(work: () => Promise<R>, timeoutMs: number | null, onTimeout: () => Error): Promise<R> {
    await this.#turn(timeoutMs, onTimeout);
    try {
      return await work();
    } finally {
      this.#next();
    }
  }

  /** How many pieces of work wait for their turn (not counting the running one). */
  get waiting(): number {
    return this.#waiting.length;
  }

  #turn(timeoutMs: number | null, onTimeout: () => Error): Promise<void> {
    if (!this.#busy) {
      this.#busy = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer =
        timeoutMs === null
          ? undefined
          : setTimeout(() => {
              this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
              reject(onTimeout());
            }, timeoutMs);
      this.#waiting.push(waiter);
    });
  }

  #next(): void {
    const waiter = this.#waiting.shift();
    if (waiter === undefined) this.#busy = false;
    else waiter.start();
  }
}
