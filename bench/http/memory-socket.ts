import { Duplex } from 'node:stream';

/**
 * A connection with no network under it: what is pushed into it reaches node:http's parser as if
 * it came off a socket, and what the server writes is only counted. Node's HTTP server accepts any
 * duplex stream as a connection (`server.emit('connection', stream)`), so a request goes through
 * node's real parser, IncomingMessage and ServerResponse, and the framework under test, without a
 * single system call: the JavaScript cost of a request, which a shared machine's load barely moves.
 */
export class MemorySocket extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 40000;
  readonly remoteFamily = 'IPv4';
  readonly localAddress = '127.0.0.1';
  readonly localPort = 8080;
  received = 0;
  /** What the server wrote, when asked to keep it. */
  readonly kept: Buffer[] | null;
  #target = 0;
  #reached: (() => void) | null = null;

  constructor({ keep = false }: { keep?: boolean } = {}) {
    super();
    this.kept = keep ? [] : null;
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.#count(chunk);
    done();
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, done: () => void): void {
    for (const { chunk } of chunks) this.#count(chunk);
    done();
  }

  /**
   * Sends `request` and resolves once `bytes` more bytes of answer have been written. The request
   * arrives on a later turn of the event loop, as a read off a real socket does: work a server
   * defers to the loop (`setImmediate`, timers) runs between requests, as it would in production,
   * instead of piling up until the measurement ends.
   */
  exchange(request: Buffer, bytes: number): Promise<void> {
    return new Promise((resolve) => {
      this.#target = this.received + bytes;
      this.#reached = resolve;
      setImmediate(() => this.push(request));
    });
  }

  // What node:http calls on a net.Socket; nothing to do without one.
  setTimeout(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  #count(chunk: Buffer): void {
    this.kept?.push(chunk);
    this.received += chunk.length;
    if (this.#reached !== null && this.received >= this.#target) {
      const reached = this.#reached;
      this.#reached = null;
      reached();
    }
  }
}
