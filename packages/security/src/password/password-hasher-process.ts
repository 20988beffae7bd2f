import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { nullLogger, ServiceUnavailableHttpError, type Logger } from '@switchboard/http-kernel';

export interface PasswordHasherProcessOptions {
  /** Receives a line when the child starts, and a warning when it dies; channel `security`. */
  logger?: Logger;
  /** The child's nice value: 19 (the lowest priority) by default. */
  niceness?: number;
  /**
   * The only variables of this process's environment the child gets (`DEFAULT_CHILD_ENVIRONMENT`
   * by default): it needs none of the host's secrets (`JWT_PASSPHRASE`, `DATABASE_URL`…), so it
   * does not hold them.
   */
  environment?: readonly string[];
}

/** What Node and the TypeScript loader may read; nothing an application configures. */
export const DEFAULT_CHILD_ENVIRONMENT: readonly string[] = [
  'PATH',
  'TMPDIR',
  'TEMP',
  'TMP',
  'TZ',
  'LANG',
  'LC_ALL',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_V8_COVERAGE',
  'NODE_EXTRA_CA_CERTS',
  'SYSTEMROOT',
];

/** Host → child: one password to check against one stored hash. */
export interface HasherRequest {
  id: number;
  password: string;
  stored: string;
}

/** Child → host: the answer to one request, or (once, first) that the child listens. */
export type HasherReply = { id: number; valid: boolean } | { id: number; failed: true } | { ready: true };

export interface PasswordHasherStats {
  /** Checks given to the child (sent, or to be sent once it has started) and not answered yet. */
  readonly pending: number;
  /** Children started so far (1 after the first start; each restart adds one). */
  readonly started: number;
}

interface Pending {
  resolve(valid: boolean): void;
  reject(error: Error): void;
}

interface Child {
  subprocess: ChildProcess;
  /** Settles when the child says it listens (or dies first). */
  ready: Promise<void>;
  pending: Map<number, Pending>;
  /** Exited, or its channel broke: no check is sent to it any more. */
  lost: boolean;
}

/**
 * From this package's TypeScript sources (this repository's tests and tools) the child needs the
 * TypeScript loader the host runs with; from the built package it is plain JavaScript.
 */
const CHILD_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './password-hasher-child.ts' : './password-hasher-child.js',
  import.meta.url,
);
const CHILD_EXEC_ARGV = import.meta.url.endsWith('.ts') ? ['--import', 'tsx'] : [];

/**
 * Checks passwords (`scryptPasswordHasher.verify`) in a child process whose CPU priority is the
 * lowest, so that a hash in progress only gets the CPU time the host's own thread leaves: the
 * scheduler always runs the host first when both want a core. Requests and answers go over the
 * IPC channel (never through a log or the command line).
 *
 * If the child dies, the checks it had are rejected with a 503 (`Retry-After: 1`), and the next
 * check starts a new child. Bounding how many checks run or wait is `PasswordHashingQueue`'s job;
 * this class sends the child whatever it is given, and the child checks one at a time.
 */
export class PasswordHasherProcess {
  readonly #logger: Logger;
  readonly #niceness: number;
  readonly #environment: readonly string[];
  #child: Child | undefined;
  #nextId = 0;
  #started = 0;
  #closed = false;

  constructor(options: PasswordHasherProcessOptions = {}) {
    this.#logger = (options.logger ?? nullLogger).child({ channel: 'security' });
    this.#niceness = options.niceness ?? 19;
    this.#environment = options.environment ?? DEFAULT_CHILD_ENVIRONMENT;
  }

  get stats(): PasswordHasherStats {
    return { pending: this.#child?.pending.size ?? 0, started: this.#started };
  }

  /** The child's process id, once started; `undefined` before and after it exits. */
  get pid(): number | undefined {
    return this.#child?.subprocess.pid;
  }

  /** Starts the child now rather than at the first check (which would then wait for it). */
  start(): Promise<void> {
    return this.#current().ready;
  }

  /** `false` for a wrong password and for a hash it cannot read, as `scryptPasswordHasher.verify`. */
  verify(password: string, stored: string): Promise<boolean> {
    let child: Child;
    try {
      child = this.#current();
    } catch (error) {
      return Promise.reject(error);
    }
    const id = this.#nextId++;
    const answer = new Promise<boolean>((resolve, reject) => child.pending.set(id, { resolve, reject }));
    // An awaited answer keeps the host alive (also while the child starts); an idle child does not.
    child.subprocess.channel?.ref();
    child.ready.then(
      () => {
        if (!child.pending.has(id)) return;
        const request: HasherRequest = { id, password, stored };
        child.subprocess.send(request, (error) => {
          if (error === null) return;
          // The channel is broken: this child is of no further use.
          child.subprocess.kill('SIGKILL');
          this.#lost(child);
        });
      },
      // The child died first; losing it rejected this check.
      () => undefined,
    );
    return answer;
  }

  /** Stops the child; checks it had are rejected with a 503, and so is every later one. */
  async close(): Promise<void> {
    this.#closed = true;
    const child = this.#child;
    if (child === undefined) return;
    const exited = new Promise<void>((resolve) => child.subprocess.once('exit', () => resolve()));
    // Waiting for its exit must keep this process alive.
    child.subprocess.ref();
    child.subprocess.kill('SIGKILL');
    await exited;
  }

  #current(): Child {
    if (this.#closed) throw unavailable(STOPPED);
    return (this.#child ??= this.#spawn());
  }

  #spawn(): Child {
    const subprocess = fork(fileURLToPath(CHILD_MODULE), [], {
      execArgv: CHILD_EXEC_ARGV,
      env: pick(process.env, this.#environment),
      // stderr stays visible for a crash (the child prints nothing itself).
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      // A process group of its own: a terminal's Ctrl-C (sent to the host's group) must not kill
      // it, even while it is still loading, before its own signal handlers exist. It stops when
      // the host closes it or exits (the channel closes).
      detached: true,
    });
    this.#started++;
    // Set before the child hashes anything (it first has to load and say it is ready), and on
    // its main thread, the one that hashes.
    if (subprocess.pid !== undefined) this.#lowerPriority(subprocess.pid);
    const child: Child = { subprocess, ready: Promise.resolve(), pending: new Map(), lost: false };
    child.ready = new Promise<void>((resolve, reject) => {
      subprocess.on('message', (reply: HasherReply) => {
        if ('ready' in reply) {
          if (child.pending.size === 0) subprocess.channel?.unref();
          return resolve();
        }
        const pending = child.pending.get(reply.id);
        if (pending === undefined) return;
        child.pending.delete(reply.id);
        if (child.pending.size === 0) subprocess.channel?.unref();
        if ('failed' in reply) pending.reject(new Error('The password check failed in the password checker process.'));
        else pending.resolve(reply.valid);
      });
      subprocess.once('exit', (code, signal) => {
        reject(unavailable(RESTARTED));
        this.#lost(child, `code ${String(code)}, signal ${String(signal)}`);
      });
      subprocess.once('error', (error) => {
        reject(unavailable(RESTARTED));
        subprocess.kill('SIGKILL');
        this.#lost(child, error.message);
      });
    });
    child.ready.catch(() => undefined);
    // Only its channel keeps this process alive, and only while a start or a check is awaited.
    subprocess.unref();
    this.#logger.info(
      { pid: subprocess.pid, niceness: this.#niceness },
      `Password checker process ${String(subprocess.pid)} started (nice ${this.#niceness}).`,
    );
    return child;
  }

  #lowerPriority(pid: number): void {
    try {
      setPriority(pid, this.#niceness);
    } catch (error) {
      this.#logger.warn({ pid, error: (error as Error).message }, 'Could not lower the priority of the password checker process.');
    }
  }

  /** Once per child: forgets it and rejects the checks it had (with a 503). */
  #lost(child: Child, reason = 'channel closed'): void {
    if (child.lost) return;
    child.lost = true;
    if (this.#child === child) this.#child = undefined;
    const checks = [...child.pending.values()];
    child.pending.clear();
    if (!this.#closed) {
      this.#logger.warn(
        { pid: child.subprocess.pid, reason, checks_failed: checks.length },
        `Password checker process ${String(child.subprocess.pid)} exited (${reason}); the next check starts a new one.`,
      );
    }
    for (const check of checks) check.reject(unavailable(this.#closed ? STOPPED : RESTARTED));
  }
}

const RESTARTED = 'The password checker restarted; retry the login.';
const STOPPED = 'The password checker has been stopped.';

function unavailable(message: string): ServiceUnavailableHttpError {
  return new ServiceUnavailableHttpError(message, { headers: { 'retry-after': '1' } });
}

/** The variables of `env` named in `names`, and no other. */
function pick(env: NodeJS.ProcessEnv, names: readonly string[]): NodeJS.ProcessEnv {
  const picked: NodeJS.ProcessEnv = {};
  for (const name of names) if (env[name] !== undefined) picked[name] = env[name];
  return picked;
}
