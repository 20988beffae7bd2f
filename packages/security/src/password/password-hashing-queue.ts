import { HttpError, nullLogger, ServiceUnavailableHttpError, type Logger } from '@switchboard/http-kernel';
import { CountedWarning } from './counted-warning.js';

export interface PasswordHashingQueueOptions {
  /**
   * Hashes computed at once. Default 1. Each takes a core (and, with the default scrypt cost,
   * 128 MiB) for the whole hash. Hashed in this process (`scryptPasswordHasher.verify`), each also
   * holds a thread of node's libuv pool, which other work needs too (file reads, DNS, WebCrypto),
   * so this must stay below the pool size (`UV_THREADPOOL_SIZE`, 4 by default).
   * `PasswordHasherProcess` takes the hashes out of this process and checks one at a time.
   */
  concurrency?: number;
  /** Hashes waiting for their turn; a login beyond them is refused with 503. Default 8. */
  maxQueued?: number;
  /**
   * Receives the refusals (warnings, at most one line a second, each with the `count` of refusals it
   * stands for) and a line per skipped hash (info), channel `security`.
   */
  logger?: Logger;
}

/** What the queue did so far; `running` and `queued` are now. */
export interface PasswordHashingStats {
  readonly running: number;
  readonly queued: number;
  /** Hashes that ran to the end (or failed). */
  readonly completed: number;
  /** Logins refused with 503 because the queue was full. */
  readonly refused: number;
  /** Hashes never started because their client had gone before their turn. */
  readonly skipped: number;
}

/**
 * The client closed its connection before its password was checked. Nobody receives the answer;
 * 499 ("client closed request", as nginx logs it) only says so in the log line.
 */
export class ClientClosedRequestError extends HttpError {
  constructor() {
    super(499, 'The client closed the connection before its password was checked.');
  }
}

/** A place in the queue, held from `reserve()` until `run` uses it or `release` gives it back. */
export interface PasswordHashingReservation {
  /** Runs `hash` in the reserved place: never refused for a full queue; skipped as `run` skips. Once only. */
  run<T>(hash: () => Promise<T>, abandoned?: () => boolean): Promise<T>;
  /** Gives the place back unused (the login was refused before its check). Does nothing once used or released. */
  release(): void;
}

interface Waiting {
  start(): void;
  skip(): void;
  abandoned: () => boolean;
}

/** Duration of one hash until one is measured (for `Retry-After` only). */
const FIRST_ESTIMATE_MS = 500;

/**
 * Bounds password hashing, the one step a client can make expensive at will: at most
 * `concurrency` hashes run, at most `maxQueued` wait (first come, first served), and a login
 * beyond that is a 503 whose `Retry-After` estimates when the queue will have room. A hash whose
 * client has gone when its turn comes (`abandoned()` answers true) is skipped. `reserve()` takes
 * the place first and the hash later, for callers with a step between the two (login throttling).
 */
export class PasswordHashingQueue {
  readonly #concurrency: number;
  readonly #maxQueued: number;
  readonly #logger: Logger;
  readonly #refusals: CountedWarning;
  readonly #waiting: Waiting[] = [];
  #running = 0;
  /** Places reserved and not used yet: they count as waiting. */
  #reserved = 0;
  #completed = 0;
  #refused = 0;
  #skipped = 0;
  /** Moving average of a hash's duration, for `Retry-After`. */
  #averageMs = FIRST_ESTIMATE_MS;

  constructor(options: PasswordHashingQueueOptions = {}) {
    const poolSize = threadPoolSize();
    this.#concurrency = options.concurrency ?? 1;
    this.#maxQueued = options.maxQueued ?? 8;
    if (!Number.isInteger(this.#concurrency) || this.#concurrency < 1 || this.#concurrency >= poolSize) {
      throw new RangeError(
        `Password hashing concurrency must be a whole number from 1 to ${poolSize - 1} (below the ${poolSize} threads of node's pool), got ${String(options.concurrency)}.`,
      );
    }
    if (!Number.isInteger(this.#maxQueued) || this.#maxQueued < 0) {
      throw new RangeError(`Password hashing maxQueued must be a whole number ≥ 0, got ${String(options.maxQueued)}.`);
    }
    this.#logger = (options.logger ?? nullLogger).child({ channel: 'security' });
    this.#refusals = new CountedWarning(this.#logger, (count) =>
      count === 1
        ? 'Password check refused: the queue is full.'
        : `${count} password checks refused in the last second: the queue is full.`,
    );
  }

  get stats(): PasswordHashingStats {
    return {
      running: this.#running,
      queued: this.#waiting.length,
      completed: this.#completed,
      refused: this.#refused,
      skipped: this.#skipped,
    };
  }

  /**
   * Runs `hash` when its turn comes. Rejects with a 503 `ServiceUnavailableHttpError` (with
   * `Retry-After`) when the queue is full, and with `ClientClosedRequestError` when `abandoned()`
   * is true at its turn; `hash` is not called in either case.
   */
  run<T>(hash: () => Promise<T>, abandoned: () => boolean = () => false): Promise<T> {
    if (abandoned()) return Promise.reject(this.#skip());
    let reservation: PasswordHashingReservation;
    try {
      reservation = this.reserve();
    } catch (error) {
      return Promise.reject(error);
    }
    return reservation.run(hash, abandoned);
  }

  /**
   * Takes a place in the queue now, for a hash given later: throws the 503
   * `ServiceUnavailableHttpError` of a full queue here, before the caller spends anything else on
   * the attempt (a login throttle's token is taken only once the check is sure to have its place).
   */
  reserve(): PasswordHashingReservation {
    if (this.#running + this.#waiting.length + this.#reserved >= this.#concurrency + this.#maxQueued) throw this.#refuse();
    this.#reserved++;
    let held = true;
    const giveBack = (): boolean => {
      if (!held) return false;
      held = false;
      this.#reserved--;
      return true;
    };
    return {
      run: <T>(hash: () => Promise<T>, abandoned: () => boolean = () => false): Promise<T> => {
        if (!giveBack()) return Promise.reject(new Error('This place in the password hashing queue was already used or released.'));
        return this.#enqueue(hash, abandoned);
      },
      release: () => void giveBack(),
    };
  }

  /** Runs or queues a hash whose place is certain. */
  #enqueue<T>(hash: () => Promise<T>, abandoned: () => boolean): Promise<T> {
    if (abandoned()) return Promise.reject(this.#skip());
    if (this.#running < this.#concurrency) return this.#start(hash);
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({
        start: () => this.#start(hash).then(resolve, reject),
        skip: () => reject(this.#skip()),
        abandoned,
      });
    });
  }

  async #start<T>(hash: () => Promise<T>): Promise<T> {
    this.#running++;
    const started = performance.now();
    try {
      return await hash();
    } finally {
      this.#averageMs = 0.8 * this.#averageMs + 0.2 * (performance.now() - started);
      this.#running--;
      this.#completed++;
      this.#startNext();
    }
  }

  #startNext(): void {
    for (let next = this.#waiting.shift(); next !== undefined; next = this.#waiting.shift()) {
      if (!next.abandoned()) return next.start();
      next.skip();
    }
  }

  #skip(): ClientClosedRequestError {
    this.#skipped++;
    this.#logger.info({ skipped: this.#skipped }, 'Password check skipped: the client had gone before its turn.');
    return new ClientClosedRequestError();
  }

  #refuse(): ServiceUnavailableHttpError {
    this.#refused++;
    // Everyone ahead (running and waiting) must finish before room is certain.
    const ahead = this.#running + this.#waiting.length + this.#reserved;
    const seconds = Math.max(1, Math.ceil((ahead * this.#averageMs) / this.#concurrency / 1000));
    this.#refusals.note({ refused_total: this.#refused, queued: this.#waiting.length, retry_after: seconds });
    return new ServiceUnavailableHttpError('Too many logins are being checked at the moment; retry later.', {
      headers: { 'retry-after': String(seconds) },
    });
  }
}

/** The size of node's libuv thread pool: `UV_THREADPOOL_SIZE` (1 to 1024), 4 when unset. */
export function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env['UV_THREADPOOL_SIZE']);
  return Number.isInteger(configured) && configured >= 1 ? Math.min(configured, 1024) : 4;
}
