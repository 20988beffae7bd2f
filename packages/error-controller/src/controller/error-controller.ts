import { defineController, Response, type Controller, type Request } from '@switchboard/http-kernel';
import { defaultResponseHeaders, statusOf } from '@switchboard/http-kernel/internal';
import { flattenError, type FlattenOptions } from '../flatten/flatten-error.js';
import { debugExceptionHeaders } from '../renderer/debug-exception-headers.js';
import type { ErrorRenderer } from '../renderer/error-renderer.js';
import { HtmlErrorRenderer } from '../renderer/html-error-renderer.js';
import { FormatNegotiation } from '../renderer/negotiate-renderer.js';
import { ProblemJsonErrorRenderer } from '../renderer/problem-json-error-renderer.js';
import { TextErrorRenderer } from '../renderer/text-error-renderer.js';

export interface ErrorControllerOptions extends DefaultErrorRenderersOptions {
  /**
   * Renderers in order of preference; the first also answers when nothing else is acceptable.
   * Outside debug mode they get the error without frames and without its cause chain.
   */
  renderers?: readonly [ErrorRenderer, ...ErrorRenderer[]];
  /** Lines of code shown on each side of a frame in debug mode (default 5). */
  sourceLines?: number;
}

/** A format of the default renderers. */
export type ErrorFormat = 'html' | 'problem+json' | 'text';

export interface DefaultErrorRenderersOptions {
  /** Full pages, traces and the `x-debug-exception*` headers. Never on in production. */
  debug: boolean;
  /**
   * The format of the default renderers that answers an `Accept` of any type (what curl
   * sends), a missing `Accept`, and one that accepts none of them: `'html'` (the default, for browsers) or `'problem+json'` (for an
   * API). Ignored by `createErrorController` when `renderers` is given: there the first one answers.
   */
  defaultFormat?: ErrorFormat;
  /** See `ProblemJsonErrorRendererOptions.exposeClientErrorMessages` (default true). */
  exposeClientErrorMessages?: boolean;
}

/** HTML, problem+json and text, with `defaultFormat` (default `'html'`) first. */
export function defaultErrorRenderers(options: boolean | DefaultErrorRenderersOptions): [ErrorRenderer, ...ErrorRenderer[]] {
  const { debug, defaultFormat = 'html', exposeClientErrorMessages } = typeof options === 'boolean' ? { debug: options } : options;
  const byFormat: Record<ErrorFormat, ErrorRenderer> = {
    html: new HtmlErrorRenderer({ debug }),
    'problem+json': new ProblemJsonErrorRenderer({
      debug,
      ...(exposeClientErrorMessages === undefined ? {} : { exposeClientErrorMessages }),
    }),
    text: new TextErrorRenderer({ debug }),
  };
  const others = (['html', 'problem+json', 'text'] as const).filter((format) => format !== defaultFormat).map((format) => byFormat[format]);
  return [byFormat[defaultFormat], ...others];
}

/**
 * The renderer of an error whose client accepts none of the formats: the first, except for a 406
 * (the client accepts none of a route's formats either), which a machine reads best as
 * problem+json, whose document lists what the route offers.
 */
function fallbackRenderer(renderers: readonly [ErrorRenderer, ...ErrorRenderer[]], exception: unknown): ErrorRenderer {
  if (statusOf(exception) !== 406) return renderers[0];
  return renderers.find((renderer) => renderer.accepts.includes('application/problem+json')) ?? renderers[0];
}

/**
 * The controller of the error sub-request: flattens the `exception` attribute, renders it in the
 * format the `Accept` header prefers, and answers with the error's status and headers (`Allow`,
 * `WWW-Authenticate`…) over the renderer's own (`content-type`, `vary: Accept`, debug headers).
 */
export function createErrorController(options: ErrorControllerOptions): Controller {
  const renderers = options.renderers ?? defaultErrorRenderers(options);
  const negotiation = new FormatNegotiation(renderers);
  // Outside debug mode no renderer shows frames or causes, so neither is read; source files are
  // read only for a format that shows them.
  const debug = options.debug;
  const flattenShown: FlattenOptions = { sourceLines: debug ? (options.sourceLines ?? 5) : 0, frames: debug, causes: debug };
  const flattenWithoutSource: FlattenOptions = { sourceLines: 0, frames: debug, causes: debug };
  return defineController(
    ['exception', 'request'],
    (exception: unknown, request: Request): Response => {
      const renderer = negotiation.accepted(request.headers.get('accept')) ?? fallbackRenderer(renderers, exception);
      const flattened = flattenError(exception, renderer.showsSourceLines === false ? flattenWithoutSource : flattenShown);
      const rendered = renderer.render(flattened, request);
      // The body was chosen by the Accept header, so caches must key on it. The headers are made
      // as one list: every 404 a scanner causes is an error page.
      const headers = defaultResponseHeaders('content-type', rendered.contentType, 'vary', 'Accept');
      const response = new Response(rendered.body, flattened.status, headers);
      if (debug) for (const [name, value] of Object.entries(debugExceptionHeaders(flattened))) headers.set(name, value);
      const errorHeaders = flattened.headers;
      for (const name in errorHeaders) headers.set(name, errorHeaders[name]!);
      return response;
    },
    'error_controller',
  );
}
