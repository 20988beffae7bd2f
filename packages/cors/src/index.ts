/**
 * @switchboard/cors — cross-origin resource sharing as two kernel steps: preflights answered
 * before routing, CORS headers added to the answers of allowed origins.
 * @module
 */
export { CorsListener } from './cors-listener.js';
export { CorsPolicyMap, type CorsConfig, type CorsOptions, type CorsPathOptions, type CorsPolicy } from './cors-policy.js';
export { compileOriginRules, LOOPBACK_ORIGIN, type OriginMatcher, type OriginRule } from './origin-rule.js';
export { answerPreflight, isPreflight } from './preflight.js';
