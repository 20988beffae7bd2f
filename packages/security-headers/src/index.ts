/**
 * @switchboard/security-headers — the security headers every API response should carry (OWASP
 * REST defaults: nosniff, no framing, a closed CSP, no referrer, HSTS over HTTPS), per route
 * configurable with `_security_headers`.
 * @module
 */
export { SecurityHeadersListener, type SecurityHeadersListenerOptions } from './security-headers-listener.js';
export { DEFAULT_SECURITY_HEADERS, type SecurityHeaderName, type SecurityHeaders } from './security-headers.js';
