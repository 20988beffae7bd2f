/**
 * `@switchboard/http-kernel/negotiation` — headers that list choices with q-values (`Accept`,
 * `Accept-Language`, `Accept-Encoding`), and the media type negotiator the view listener and the
 * error controller share.
 * @module
 */
export { parseQualityList, type QualityItem } from './http/quality-list.js';
export { MediaTypeNegotiator, negotiateMediaType, parseAccept, type MediaRange } from './http/media-type-negotiator.js';
