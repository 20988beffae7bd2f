import type { Logger } from '@switchboard/http-kernel';

/**
 * One warning that a flood may repeat, written at most once per `intervalMs`: the first occurrence
 * at once, the ones that follow within the interval as one line at its end, with their count. A
 * flood of refusals then costs a line a second, not a line each, and the log still says how many.
 */
export class CountedWarning {
  readonly #logger: Logger;
  readonly #message: (count: number) => string;
  readonly #intervalMs: number;
  #pending = 0;
  #lastContext: Record<string, unknown> = {};
  #timer: NodeJS.Timeout | undefined;

  constructor(logger: Logger, message: (count: number) => string, intervalMs = 1_000) {
    this.#logger = logger;
    this.#message = message;
    this.#intervalMs = intervalMs;
  }

  /** One occurrence; `context` (the latest one's, when several are counted together) goes with its line. */
  note(context: Record<string, unknown>): void {
    if (this.#timer === undefined) {
      this.#write(1, context);
      return;
    }
    this.#pending++;
    this.#lastContext = context;
  }

  #write(count: number, context: Record<string, unknown>): void {
    this.#logger.warn({ count, ...context }, this.#message(count));
    // Unreferenced: a pending count never keeps a process alive that is otherwise done.
    this.#timer = setTimeout(this.#endInterval, this.#intervalMs).unref();
  }

  readonly #endInterval = (): void => {
    this.#timer = undefined;
    if (this.#pending === 0) return;
    const count = this.#pending;
    this.#pending = 0;
    this.#write(count, this.#lastContext);
  };
}
