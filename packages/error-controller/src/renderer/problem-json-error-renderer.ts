import { requestIdOf, type Request } from '@switchboard/http-kernel';
import { hasMembers } from '@switchboard/http-kernel/internal';
import type { FlattenedError, FlattenedFrame } from '../flatten/flatten-error.js';
import type { ErrorRenderer, RenderedError } from './error-renderer.js';

/** Members RFC 9457 defines, and the debug ones we add: an error's `details` cannot replace them. */
const RESERVED_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'instance', 'requestId', 'class', 'trace', 'causes']);

export interface ProblemJsonErrorRendererOptions {
  debug: boolean;
  /**
   * Outside debug mode, whether a 4xx `HttpError`'s message is the `detail` (default true: it is
   * written for the client, `Note 99 not found.`). An error's own `exposeMessage` overrides it.
   * A 5xx's message is never shown outside debug mode.
   */
  exposeClientErrorMessages?: boolean;
}

/**
 * `application/problem+json` (RFC 9457). `type` is `about:blank`, so `title` is the status's reason
 * phrase; `detail` is the error message in debug mode; outside it, a 4xx `HttpError`'s message
 * (see `exposeClientErrorMessages`) and the reason phrase for everything else (messages of
 * unexpected errors may tell too much). An `HttpError`'s `details` become extension members in
 * every mode; the error class, its trace and its causes are added in debug mode only. The request's
 * id (`RequestIdListener`), when it has one, is the `requestId` member, so a client can quote it.
 */
export class ProblemJsonErrorRenderer implements ErrorRenderer {
  readonly accepts = ['application/problem+json', 'application/json'] as const;
  readonly showsSourceLines = false;
  /**
   * Outside debug mode, a problem without extension members is a function of its status and
   * reason phrase alone: written once per status, then reused (a scanner's 404s all read alike).
   */
  readonly #plainProblems = new Map<number, { readonly title: string; readonly body: string }>();

  readonly #exposeClientErrorMessages: boolean;

  constructor(private readonly options: ProblemJsonErrorRendererOptions) {
    this.#exposeClientErrorMessages = options.exposeClientErrorMessages ?? true;
  }

  render(error: FlattenedError, request?: Request): RenderedError {
    const requestId = request === undefined ? undefined : requestIdOf(request);
    if (this.options.debug || hasMembers(error.details) || this.#detailOf(error) !== error.statusText) {
      return { body: this.#write(error, requestId), contentType: 'application/problem+json' };
    }
    let plain = this.#plainProblems.get(error.status);
    if (plain === undefined || plain.title !== error.statusText) {
      plain = { title: error.statusText, body: this.#write(error, undefined) };
      // Statuses are 4xx and 5xx: the map stays small.
      this.#plainProblems.set(error.status, plain);
    }
    // The cached document with one more member: its closing brace gives way to it.
    const body = requestId === undefined ? plain.body : `${plain.body.slice(0, -1)},"requestId":${JSON.stringify(requestId)}}`;
    return { body, contentType: 'application/problem+json' };
  }

  #write(error: FlattenedError, requestId: string | undefined): string {
    const problem: Record<string, unknown> = {
      type: 'about:blank',
      title: error.statusText,
      status: error.status,
      detail: this.#detailOf(error),
    };
    for (const [name, value] of Object.entries(error.details)) {
      if (!RESERVED_MEMBERS.has(name)) problem[name] = value;
    }
    if (requestId !== undefined) problem['requestId'] = requestId;
    const document = safeStringify(problem);
    if (!this.options.debug) return document;
    // The debug members last, as plain JSON: the traces are the same from one error to the next.
    let debugMembers = `"class":${JSON.stringify(error.class)},"trace":${traceJson(error.frames)}`;
    if (error.cause !== null) {
      let causes = '';
      for (let cause: FlattenedError | null = error.cause; cause !== null; cause = cause.cause) {
        causes += `${causes === '' ? '' : ','}{"class":${JSON.stringify(cause.class)},"message":${JSON.stringify(cause.message)},"trace":${traceJson(cause.frames)}}`;
      }
      debugMembers += `,"causes":[${causes}]`;
    }
    return `${document.slice(0, -1)},${debugMembers}}`;
  }

  #detailOf(error: FlattenedError): string {
    if (this.options.debug) return error.message;
    const exposed = error.status < 500 && (error.exposeMessage ?? this.#exposeClientErrorMessages) && error.message !== '';
    return exposed ? error.message : error.statusText;
  }
}

function traceEntry(frame: FlattenedFrame): Record<string, unknown> {
  return { function: frame.function, file: frame.file, line: frame.line, column: frame.column };
}

/** The `trace` member of frames flattened once and shared (frozen): written once. */
const traceJsons = new WeakMap<readonly FlattenedFrame[], string>();

function traceJson(frames: readonly FlattenedFrame[]): string {
  const known = traceJsons.get(frames);
  if (known !== undefined) return known;
  const json = JSON.stringify(frames.map(traceEntry));
  if (Object.isFrozen(frames)) traceJsons.set(frames, json);
  return json;
}

/**
 * `details` are caller data: a cycle or a BigInt must not turn the error page into a second error.
 * Plain JSON first (the common case, and the cheap one); what it refuses is written again with
 * BigInts as strings and repeated objects as `[circular]`.
 */
function safeStringify(value: Record<string, unknown>): string {
  try {
    return JSON.stringify(value);
  } catch {
    return tolerantStringify(value);
  }
}

function tolerantStringify(value: Record<string, unknown>): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, member: unknown) => {
    if (typeof member === 'bigint') return member.toString();
    if (typeof member === 'object' && member !== null) {
      if (seen.has(member)) return '[circular]';
      seen.add(member);
    }
    return member;
  });
}
