import { DeferredHttpError, HttpError, type HeaderValue } from '@switchboard/http-kernel';
import { statusOf, statusText } from '@switchboard/http-kernel/internal';
import { SourceExcerptReader, type SourceExcerpt } from './source-excerpt.js';
import { originalPosition } from './source-position.js';
import { findFrame, isFrameLine, parseStack, type StackFrame } from './stack-frame.js';

/** A frame as shown: positions mapped to the TypeScript source, code around it in debug mode. */
export interface FlattenedFrame extends StackFrame {
  /** Present only when flattening was asked for source lines (debug mode). */
  readonly excerpt?: SourceExcerpt;
}

/**
 * Everything an error page, a problem document or the profiler's exception panel shows about an
 * error: plain data (no functions, no error objects), so it can be stored and serialised.
 */
export interface FlattenedError {
  readonly status: number;
  readonly statusText: string;
  /** The headers the error asks for (`Allow` on a 405, `WWW-Authenticate` on a 401). */
  readonly headers: Readonly<Record<string, HeaderValue>>;
  readonly message: string;
  /** Constructor name: `NotFoundHttpError`, `TypeError`; `string` etc. for a thrown non-error. */
  readonly class: string;
  /**
   * An `HttpError`'s own say on showing its message to the client outside debug mode
   * (`exposeMessage`); `null` when it has none, or for any other error.
   */
  readonly exposeMessage: boolean | null;
  /** RFC 9457 extension members of an `HttpError` (`violations`…). */
  readonly details: Readonly<Record<string, unknown>>;
  /** Where it was thrown (the first frame outside the error's own constructors), mapped to source. */
  readonly file: string | null;
  readonly line: number | null;
  readonly frames: readonly FlattenedFrame[];
  /** The `cause` chain, flattened the same way; `null` at its end. */
  readonly cause: FlattenedError | null;
}

export interface FlattenOptions {
  /** Lines of source to read on each side of every frame. 0 (the default) reads no file at all. */
  sourceLines?: number;
  /**
   * Read the stack traces (default true). Without them `frames` is empty and `file`/`line` are
   * null, which is all a page outside debug mode shows (docs/decisions.md D8).
   */
  frames?: boolean;
  /** Flatten the `cause` chain too (default true); without it `cause` is null. */
  causes?: boolean;
}

const NO_FRAMES: readonly FlattenedFrame[] = Object.freeze([]);

/** Longer chains are cut: a cause chain is for reading, not for recursion without end. */
const MAX_CAUSE_DEPTH = 16;

/**
 * Errors flattened with frames and causes and without source lines, while they live: an API
 * client's debug error page and the profiler's exception panel flatten the same error.
 */
const flattenedErrors = new WeakMap<object, FlattenedError>();

/**
 * Turns any thrown value into a `FlattenedError`. Never throws. A `DeferredHttpError` is made into
 * its error only when frames or causes are asked for: without them its description says it all.
 */
export function flattenError(error: unknown, options: FlattenOptions = {}): FlattenedError {
  const withFrames = options.frames ?? true;
  const sourceLines = options.sourceLines ?? 0;
  const withCauses = options.causes ?? true;
  if (error instanceof DeferredHttpError) {
    if (!withFrames && !withCauses) return flattenDescribed(error);
    return flattenError(error.toError(), options);
  }
  const shared = withFrames && sourceLines <= 0 && withCauses && typeof error === 'object' && error !== null;
  const known = shared ? flattenedErrors.get(error) : undefined;
  // A message changed since (an error reused and rewritten) is flattened anew.
  if (known !== undefined && known.message === messageOf(error)) return known;
  const reader = withFrames && sourceLines > 0 ? new SourceExcerptReader() : null;
  const flattened = flattenOne(error, withFrames, sourceLines, reader, new Set(), 0, withCauses ? MAX_CAUSE_DEPTH : 0);
  if (shared) flattenedErrors.set(error, flattened);
  return flattened;
}

function flattenDescribed(error: DeferredHttpError): FlattenedError {
  return {
    status: error.status,
    statusText: statusText(error.status),
    headers: error.headers,
    message: error.message,
    class: error.name,
    details: error.details,
    file: null,
    line: null,
    frames: NO_FRAMES,
    cause: null,
    exposeMessage: error.exposeMessage,
  };
}

function flattenOne(
  error: unknown,
  withFrames: boolean,
  radius: number,
  reader: SourceExcerptReader | null,
  seen: Set<unknown>,
  depth: number,
  maxDepth: number,
): FlattenedError {
  seen.add(error);
  const status = statusOf(error);
  const frames = withFrames ? framesOf(error, radius, reader) : [];
  const constructors = frames.length === 0 ? null : constructorsOf(error);
  const site = constructors === null ? undefined : frames.find((frame) => isThrowSite(frame, constructors));
  const next = error instanceof Error ? error.cause : undefined;
  const hasCause = next !== undefined && next !== null && !seen.has(next) && depth < maxDepth;
  return {
    status,
    statusText: statusText(status),
    headers: error instanceof HttpError ? { ...error.headers } : {},
    message: messageOf(error),
    class: classOf(error),
    exposeMessage: error instanceof HttpError ? error.exposeMessage : null,
    details: error instanceof HttpError ? { ...error.details } : {},
    file: site?.file ?? null,
    line: site?.line ?? null,
    frames,
    cause: hasCause ? flattenOne(next, withFrames, radius, reader, seen, depth + 1, maxDepth) : null,
  };
}

/**
 * Class, message and throw site of an error in one line, as log messages quote it: the file and
 * line of the throw site in its stack (parsed only down to there, only that frame mapped), or,
 * for an `HttpError` built without a stack trace, the site its thrower named (`thrownBy`).
 */
export function describeThrowSite(error: unknown): string {
  const stack = stackOf(error);
  const constructors = constructorsOf(error);
  const found = stack === undefined ? undefined : findFrame(stack, (frame) => isThrowSite(frame, constructors));
  const site =
    found === undefined || found.file === null || found.line === null
      ? null
      : originalPosition({ file: found.file, line: found.line, column: found.column ?? 1 });
  const named = error instanceof HttpError ? error.thrownBy : null;
  const where = site !== null ? ` at ${basename(site.file)} line ${site.line}` : named !== null ? ` at ${named}` : '';
  return `${classOf(error)}: "${messageOf(error)}"${where}`;
}

function basename(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

function stackOf(error: unknown): string | undefined {
  try {
    const stack: unknown = error instanceof Error ? error.stack : undefined;
    return typeof stack === 'string' ? stack : undefined;
  } catch {
    return undefined;
  }
}

function framesOf(error: unknown, radius: number, reader: SourceExcerptReader | null): readonly FlattenedFrame[] {
  const stack = stackOf(error);
  if (stack === undefined) return [];
  const located = locatedFrames(stack);
  if (reader === null) return located;
  return located.map((frame): FlattenedFrame => {
    // Node's own code and dependencies are collapsed on the page: not read.
    if (frame.file === null || frame.line === null || frame.vendor) return frame;
    const excerpt = reader.excerpt(frame.file, frame.line, radius);
    return excerpt === null ? frame : { ...frame, excerpt };
  });
}

/**
 * Frames already located, by the stack text below its first line: errors made at the same place
 * (every routing miss of a debug host) have the same frames under different messages.
 */
const locatedStacks = new Map<string, readonly StackFrame[]>();
const MAX_CACHED_STACKS = 256;

/** The frames of `stack`, positions mapped to the source; shared and frozen. */
function locatedFrames(stack: string): readonly StackFrame[] {
  const firstLineEnd = stack.indexOf('\n');
  // A first line that reads as a frame (an error named '' whose message starts with "at ") is one.
  const key = firstLineEnd < 0 || isFrameLine(stack.slice(0, firstLineEnd)) ? stack : stack.slice(firstLineEnd);
  const known = locatedStacks.get(key);
  if (known !== undefined) return known;
  const frames = Object.freeze(
    parseStack(key).map((frame): StackFrame => {
      // Node's own code and dependencies are collapsed on the page: not mapped.
      if (frame.file === null || frame.line === null || frame.vendor) return frame;
      const mapped = originalPosition({ file: frame.file, line: frame.line, column: frame.column ?? 1 });
      return Object.freeze({ ...frame, file: mapped.file, line: mapped.line, column: mapped.column });
    }),
  );
  if (locatedStacks.size >= MAX_CACHED_STACKS) locatedStacks.delete(locatedStacks.keys().next().value as string);
  locatedStacks.set(key, frames);
  return frames;
}

/**
 * The throw site is the first frame that is not the error's own constructor chain:
 * `new NotFoundHttpError` and `new HttpError` are where the stack was captured, not where the
 * code decided to throw.
 */
function isThrowSite(frame: StackFrame, constructors: ReadonlySet<string>): boolean {
  return frame.file !== null && !(frame.function !== null && constructors.has(frame.function));
}

function constructorsOf(error: unknown): Set<string> {
  const constructors = new Set<string>();
  for (
    let proto = error instanceof Error ? Object.getPrototypeOf(error) : null;
    proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string' && name !== '') constructors.add(`new ${name}`);
  }
  return constructors;
}

function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    if (typeof error === 'string') return error;
    return String(error);
  } catch {
    return '(the thrown value cannot be turned into text)';
  }
}

function classOf(error: unknown): string {
  if (error === null) return 'null';
  if (typeof error !== 'object' && typeof error !== 'function') return typeof error;
  const name = (error as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'Object';
}
