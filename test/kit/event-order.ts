/**
 * The events that follow `kernel.exception` when the error listener answers a main request with
 * its error page: the page is a sub-request with a lifecycle of its own, then the main request's
 * response and finish run (docs/architecture.md, "The error page is a sub-request"). Written
 * `<main|sub> <event name>`, as the tests' event recorders write them.
 */
export const ERROR_PAGE_EVENTS: readonly string[] = [
  'sub kernel.request',
  'sub kernel.controller',
  'sub kernel.controller_arguments',
  'sub kernel.response',
  'sub kernel.finish_request',
  'main kernel.response',
  'main kernel.finish_request',
];
