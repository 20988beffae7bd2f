import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  HttpError,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  UnauthorizedHttpError,
  withoutStackTrace,
} from '@switchboard/http-kernel';
import { describeThrowSite, flattenError } from '../src/index.js';
import { SourceExcerptReader } from '../src/flatten/source-excerpt.js';
import { parseStack } from '../src/flatten/stack-frame.js';

const THIS_FILE = fileURLToPath(import.meta.url);
const SOURCE = readFileSync(THIS_FILE, 'utf8').split('\n');
/** 1-based number of the line carrying `marker`, so the expectations survive edits above them. */
const lineOf = (marker: string) => SOURCE.findIndex((line) => line.includes(marker) && !line.includes('lineOf(')) + 1;

/** A wrapper that builds the error inside a factory, the way a helper module would. */
function notFoundFrom(helper: string): NotFoundHttpError {
  return new NotFoundHttpError(`${helper} missing`); // throw-site-helper
}

describe('flattenError', () => {
  it('keeps status, status text, headers, class, message and the throw site', () => {
    const error = new MethodNotAllowedHttpError(['GET', 'POST'], 'Method Not Allowed (Allow: GET, POST)'); // throw-site-405
    const flat = flattenError(error);
    expect(flat).toMatchObject({
      status: 405,
      statusText: 'Method Not Allowed',
      headers: { allow: 'GET, POST' },
      message: 'Method Not Allowed (Allow: GET, POST)',
      class: 'MethodNotAllowedHttpError',
      file: THIS_FILE,
      cause: null,
    });
    expect(flat.line).toBe(lineOf('// throw-site-405'));
    expect(flat.frames[0]).toMatchObject({ file: THIS_FILE, line: lineOf('// throw-site-405'), vendor: false });
  });

  it('reads no source outside debug mode and the lines around each frame when asked', () => {
    const plain = flattenError(notFoundFrom('a'));
    expect(plain.frames.some((f) => f.excerpt !== undefined)).toBe(false);
    const withSource = flattenError(notFoundFrom('b'), { sourceLines: 2 });
    const top = withSource.frames[0]!;
    expect(top.function).toBe('notFoundFrom');
    const site = lineOf('// throw-site-helper');
    expect(top.excerpt).toMatchObject({ firstLine: site - 2, highlighted: site });
    expect(top.excerpt!.lines).toHaveLength(5);
    expect(top.excerpt!.lines[2]).toContain('return new NotFoundHttpError(`${helper} missing`);');
  });

  it('locates the frames of errors made at the same place once, whatever their messages', () => {
    const errors = ['a', 'b', 'c'].map((helper) => notFoundFrom(helper));
    const [first, ...others] = errors.map((error) => flattenError(error));
    expect(first!.frames[0]).toMatchObject({ function: 'notFoundFrom', file: THIS_FILE, line: lineOf('// throw-site-helper') });
    for (const other of others) expect(other.frames).toBe(first!.frames);
    expect(Object.isFrozen(first!.frames)).toBe(true);
    expect(errors.map((error) => flattenError(error).message)).toEqual(['a missing', 'b missing', 'c missing']);
    // An error made elsewhere has frames of its own.
    expect(flattenError(new NotFoundHttpError('elsewhere')).frames).not.toBe(first!.frames);
  });

  it('flattens a 3-level cause chain and stops at cycles', () => {
    const root = new Error('connection refused');
    const middle = new Error('query failed', { cause: root });
    const top = new HttpError(503, 'Service Unavailable', { cause: middle });
    const flat = flattenError(top);
    expect([flat.message, flat.cause?.message, flat.cause?.cause?.message, flat.cause?.cause?.cause]).toEqual([
      'Service Unavailable',
      'query failed',
      'connection refused',
      null,
    ]);
    expect(flat.cause?.status).toBe(500);

    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    const cyclic = flattenError(a);
    expect(cyclic.cause?.message).toBe('b');
    expect(cyclic.cause?.cause).toBeNull();

    // What an error page outside debug mode asks for: the error alone.
    const alone = flattenError(top, { frames: false, causes: false });
    expect([alone.message, alone.cause, alone.frames, alone.file]).toEqual(['Service Unavailable', null, [], null]);
  });

  it('maps every non-HTTP error to 500 and describes thrown non-errors', () => {
    expect(flattenError(new TypeError('x'))).toMatchObject({
      status: 500,
      statusText: 'Internal Server Error',
      class: 'TypeError',
      headers: {},
    });
    expect(flattenError('text')).toMatchObject({ status: 500, class: 'string', message: 'text', frames: [], file: null });
    expect(flattenError(null)).toMatchObject({ class: 'null', message: 'null' });
    expect(flattenError({ code: 1 })).toMatchObject({ class: 'Object', message: '[object Object]' });
    expect(flattenError(Object.create(null))).toMatchObject({ message: '(the thrown value cannot be turned into text)' });
  });

  it('keeps the challenge header of a 401 and describes the throw site like the log line', () => {
    const error = new UnauthorizedHttpError('Bearer', 'JWT Token not found');
    const flat = flattenError(error);
    expect(flat.headers).toEqual({ 'www-authenticate': 'Bearer' });
    expect(flattenError(error, { frames: false })).toMatchObject({ frames: [], file: null, line: null, message: 'JWT Token not found' });
    expect(describeThrowSite(error)).toMatch(/^UnauthorizedHttpError: "JWT Token not found" at flatten-error\.test\.ts line \d+$/);
  });

  it('names the throw site an HttpError built without a stack trace gives, and prefers a stack it has', () => {
    const quiet = withoutStackTrace(() => new NotFoundHttpError('No route', { thrownBy: 'RouterListener.onKernelRequest' }));
    expect(describeThrowSite(quiet)).toBe('NotFoundHttpError: "No route" at RouterListener.onKernelRequest');
    const full = new NotFoundHttpError('No route', { thrownBy: 'RouterListener.onKernelRequest' });
    expect(describeThrowSite(full)).toMatch(/^NotFoundHttpError: "No route" at flatten-error\.test\.ts line \d+$/);
  });

  it("skips frames of the error's own constructors when the stack was captured there", () => {
    class WrappedError extends Error {
      constructor(message: string) {
        super(message);
        // Re-capturing without a constructor filter puts `new WrappedError` on top.
        Error.captureStackTrace(this);
      }
    }
    const flat = flattenError(new WrappedError('w'));
    expect(flat.frames[0]!.function).toBe('new WrappedError');
    expect(flat.line).not.toBe(flat.frames[0]!.line);
    expect(flat.file).toBe(THIS_FILE);
  });
});

describe('parseStack', () => {
  it('reads every shape of V8 frame', () => {
    const frames = parseStack(
      [
        'Error: first line',
        'second line of the message',
        '    at Foo.bar (/srv/app/foo.ts:10:5)',
        '    at async Promise.all (index 0)',
        '    at file:///srv/app/main.js:3:1',
        '    at new Promise (<anonymous>)',
        '    at Module._compile (node:internal/modules/cjs/loader:1256:14)',
        '    at handler (/srv/app/node_modules/lib/index.js:1:2)',
        '    at eval (eval at run (/srv/app/run.js:4:9), <anonymous>:1:1)',
      ].join('\n'),
    );
    expect(frames).toEqual([
      { function: 'Foo.bar', file: '/srv/app/foo.ts', line: 10, column: 5, vendor: false },
      { function: 'async Promise.all', file: null, line: null, column: null, vendor: true },
      { function: null, file: '/srv/app/main.js', line: 3, column: 1, vendor: false },
      { function: 'new Promise', file: null, line: null, column: null, vendor: true },
      { function: 'Module._compile', file: 'node:internal/modules/cjs/loader', line: 1256, column: 14, vendor: true },
      { function: 'handler', file: '/srv/app/node_modules/lib/index.js', line: 1, column: 2, vendor: true },
      { function: 'eval', file: '/srv/app/run.js', line: 4, column: 9, vendor: false },
    ]);
  });
});

describe('SourceExcerptReader', () => {
  it('reads an edited file again on the next page, keeps an unchanged one, and reads nothing relative', () => {
    const dir = mkdtempSync(join(tmpdir(), 'excerpt-'));
    try {
      const file = join(dir, 'source.ts');
      writeFileSync(file, 'one\ntwo\nthree\n');
      expect(new SourceExcerptReader().excerpt(file, 2, 0)?.lines).toEqual(['two']);
      // Same size on purpose: the modification time alone must tell the edit.
      writeFileSync(file, 'one\nTWO\nthree\n');
      utimesSync(file, new Date(), new Date(Date.now() + 5_000));
      expect(new SourceExcerptReader().excerpt(file, 2, 0)?.lines).toEqual(['TWO']);
      writeFileSync(file, 'one\nsecond\nthree\n');
      expect(new SourceExcerptReader().excerpt(file, 2, 1)?.lines).toEqual(['one', 'second', 'three']);
      expect(new SourceExcerptReader().excerpt('source.ts', 2, 0)).toBeNull();
      // Only source files: a frame naming any other file shows no lines of it.
      const secrets = join(dir, 'secrets.env');
      writeFileSync(secrets, 'TOKEN=x\n');
      expect(new SourceExcerptReader().excerpt(secrets, 1, 0)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
