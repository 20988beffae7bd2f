/**
 * The shared test kit: a real kernel wired for a package's tests, served by the real node adapter
 * on 127.0.0.1, and raw HTTP clients for what `fetch` cannot send. Test support only; see README.md.
 */
export { bodyText, declarationOwner, testKernel, type TestKernel, type TestKernelOptions } from './kernel.js';
export { handlerRoutes, RouteTableListener, type RouteTable, type TestRoute } from './route-table.js';
export { TextErrorResponder } from './text-error-responder.js';
export { ERROR_PAGE_EVENTS } from './event-order.js';
export { serveKernel, startTestServer, type ServedKernel, type TestServer, type TestServeOptions, type TextResponse } from './serve.js';
