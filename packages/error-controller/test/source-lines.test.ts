/**
 * In debug mode source files are read for the formats that show lines of source, and an error
 * is flattened once for every reader that asks for no source lines (the problem+json page of an
 * API client and the profiler's exception panel).
 */
import { describe, expect, it } from 'vitest';
import { NotFoundHttpError, Request } from '@switchboard/http-kernel';
import { createErrorController, flattenError, type ErrorRenderer, type FlattenedError } from '../src/index.js';
import { errorKernel } from './support/error-kernel.js';

/** A renderer keeping the flattened errors it was given. */
function keepingRenderer(showsSourceLines: boolean | undefined): ErrorRenderer & { readonly seen: FlattenedError[] } {
  const seen: FlattenedError[] = [];
  return {
    accepts: ['text/plain'],
    ...(showsSourceLines === undefined ? {} : { showsSourceLines }),
    seen,
    render(error) {
      seen.push(error);
      return { body: error.message, contentType: 'text/plain' };
    },
  };
}

async function renderedBy(renderer: ReturnType<typeof keepingRenderer>): Promise<FlattenedError> {
  const app = errorKernel(
    (d) =>
      d.on(
        'kernel.request',
        (event) => {
          if (event.isMainRequest()) throw new NotFoundHttpError('gone');
        },
        32,
        { name: 'ThrowingRouter' },
      ),
    { controller: createErrorController({ debug: true, renderers: [renderer] }) },
  );
  expect((await app.handle(Request.fromUrl('http://localhost/gone'))).status).toBe(404);
  expect(renderer.seen).toHaveLength(1);
  return renderer.seen[0]!;
}

describe('lines of source in debug mode', () => {
  it('are read for a renderer that shows them, or does not say', async () => {
    for (const shows of [true, undefined]) {
      const error = await renderedBy(keepingRenderer(shows));
      expect(
        error.frames.some((frame) => frame.excerpt !== undefined),
        String(shows),
      ).toBe(true);
    }
  });

  it('are not read for a renderer that does not show them, which still gets every frame', async () => {
    const error = await renderedBy(keepingRenderer(false));
    expect(error.frames.length).toBeGreaterThan(0);
    expect(error.frames.some((frame) => frame.excerpt !== undefined)).toBe(false);
    expect(error.file).toMatch(/source-lines\.test\.ts$/);
  });
});

it('flattens an error once for every reader asking for no source lines, and again once its message changed', () => {
  const error = new NotFoundHttpError('gone');
  const first = flattenError(error);
  expect(flattenError(error)).toBe(first);
  expect(flattenError(error, { sourceLines: 2 })).not.toBe(first);
  error.message = 'moved';
  expect(flattenError(error).message).toBe('moved');
});
