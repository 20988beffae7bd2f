/**
 * `@switchboard/http-kernel/view` — controllers that return data instead of a response: the view
 * listener at `kernel.view`, `view()` for a status and headers, and the encoders of the formats a
 * route offers (`_formats`).
 * @module
 */
export { ViewListener, type ViewListenerOptions } from './listener/view-listener.js';
export { View, view, type ViewOptions } from './view/view.js';
export type { EncodeContext, Encoder } from './view/encoder.js';
export { eventStreamEncoder, jsonEncoder, ndjsonEncoder } from './view/built-in-encoders.js';
export { BUILT_IN_ENCODERS, declaredEncoders, FORMATS_DEFAULT } from './view/formats.js';
