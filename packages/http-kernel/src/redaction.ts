/**
 * `@switchboard/http-kernel/redaction` — text made safe to log or show: credentials and values named
 * like secrets hidden, control characters escaped.
 * @module
 */
export { REDACTED, redactCredentials } from './log/redact-credentials.js';
export {
  DEFAULT_EXACT_SECRET_NAMES,
  DEFAULT_SECRET_NAMES,
  redactSecrets,
  TextRedactor,
  type TextRedactorOptions,
} from './log/text-redactor.js';
export { escapeControlCharacters } from './log/escape-control-characters.js';
export { logSafeText } from './log/log-safe-text.js';
