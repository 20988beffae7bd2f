import { escapeControlCharacters } from './escape-control-characters.js';
import { redactSecrets } from './text-redactor.js';

/**
 * Text as a log line may quote it, in any format: secrets hidden (`redactSecrets`: values named
 * like secrets such as `password=`, `token=`, `code=`, URL userinfo, bearer credentials), then
 * control characters escaped (`escapeControlCharacters`: line breaks, terminal escapes,
 * bidirectional overrides). For messages and fields that quote request data.
 */
export function logSafeText(text: string): string {
  return escapeControlCharacters(redactSecrets(text));
}
