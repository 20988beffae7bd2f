import { fileURLToPath } from 'node:url';

/** One call site of a stack trace. */
export interface StackFrame {
  /** `HttpKernel.handle`, `new NotFoundHttpError`, `async Promise.all`… `null` for anonymous top-level code. */
  readonly function: string | null;
  /** Absolute path (file URLs are turned into paths), `node:internal/…`, or `null` for native code. */
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
  /** Node's own code, native code or a dependency under node_modules: collapsed on the debug page. */
  readonly vendor: boolean;
}

const FRAME_LINE = /^\s*at (.*)$/;
const WITH_FUNCTION = /^(.*?) \((.*)\)$/;
const LOCATION = /^(.*):(\d+):(\d+)$/;

/**
 * Parses V8's `error.stack` text. Only `at …` lines are read, so a multi-line message in the
 * first line(s) does not produce frames. Frames that cannot be parsed are kept with what is known.
 */
export function parseStack(stack: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of stack.split('\n')) {
    const match = FRAME_LINE.exec(line);
    if (match === null) continue;
    frames.push(parseFrame(match[1]!.trim()));
  }
  return frames;
}

/** Whether a line of `error.stack` is a frame (`    at …`). */
export function isFrameLine(line: string): boolean {
  return FRAME_LINE.test(line);
}

/** The first frame `accept` takes, parsing no further: the log line needs only the throw site. */
export function findFrame(stack: string, accept: (frame: StackFrame) => boolean): StackFrame | undefined {
  for (const line of stack.split('\n')) {
    const match = FRAME_LINE.exec(line);
    if (match === null) continue;
    const frame = parseFrame(match[1]!.trim());
    if (accept(frame)) return frame;
  }
  return undefined;
}

/** Frames already parsed, by their text: the same call sites appear in trace after trace. */
const parsedFrames = new Map<string, StackFrame>();
const MAX_CACHED_FRAMES = 4096;

function parseFrame(text: string): StackFrame {
  const known = parsedFrames.get(text);
  if (known !== undefined) return known;
  const frame = Object.freeze(parseFrameText(text));
  if (parsedFrames.size >= MAX_CACHED_FRAMES) parsedFrames.delete(parsedFrames.keys().next().value as string);
  parsedFrames.set(text, frame);
  return frame;
}

function parseFrameText(text: string): StackFrame {
  const withFunction = WITH_FUNCTION.exec(text);
  const fn = withFunction === null ? null : withFunction[1]!;
  let where = withFunction === null ? text : withFunction[2]!;
  // `eval at f (file:1:2), <anonymous>:1:1`: the outer location is the useful one.
  if (where.startsWith('eval at ')) where = /\((.*?:\d+:\d+)\)/.exec(where)?.[1] ?? where;
  const location = LOCATION.exec(where);
  if (location === null) {
    // `<anonymous>`, `native`, `index 0`: no source to point at.
    return { function: fn, file: null, line: null, column: null, vendor: true };
  }
  const file = toPath(location[1]!);
  return { function: fn, file, line: Number(location[2]), column: Number(location[3]), vendor: isVendor(file) };
}

function toPath(location: string): string {
  if (!location.startsWith('file://')) return location;
  try {
    return fileURLToPath(location);
  } catch {
    return location;
  }
}

function isVendor(file: string): boolean {
  return file.startsWith('node:') || file.includes('/node_modules/') || file.includes('\\node_modules\\');
}
