/**
 * @switchboard/error-controller — turns uncaught errors into error responses: the error listener
 * (logging, the error sub-request, CSP removal), the error controller, the flattened error and
 * the HTML, problem+json and text renderers chosen by `Accept`.
 * @module
 */
export { ErrorListener, type ErrorListenerOptions, type StatusLogLevels } from './listener/error-listener.js';
export {
  createErrorController,
  defaultErrorRenderers,
  type DefaultErrorRenderersOptions,
  type ErrorControllerOptions,
  type ErrorFormat,
} from './controller/error-controller.js';

export {
  describeThrowSite,
  flattenError,
  type FlattenedError,
  type FlattenedFrame,
  type FlattenOptions,
} from './flatten/flatten-error.js';
export type { StackFrame } from './flatten/stack-frame.js';
export { SourceExcerptReader, type SourceExcerpt } from './flatten/source-excerpt.js';

export type { ErrorRenderer, RenderedError } from './renderer/error-renderer.js';
export { HtmlErrorRenderer } from './renderer/html-error-renderer.js';
export { ProblemJsonErrorRenderer, type ProblemJsonErrorRendererOptions } from './renderer/problem-json-error-renderer.js';
export { TextErrorRenderer } from './renderer/text-error-renderer.js';
export { negotiateRenderer, type Negotiable } from './renderer/negotiate-renderer.js';
export { debugExceptionHeaders, encodeRfc3986, MAX_DEBUG_MESSAGE_BYTES } from './renderer/debug-exception-headers.js';
