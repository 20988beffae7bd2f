/**
 * `@switchboard/http-kernel/locale` — the request's locale: from the route's `_locale`, else the
 * best match of `Accept-Language` among the locales an application offers.
 * @module
 */
export { LocaleListener, type LocaleAware, type LocaleListenerOptions } from './listener/locale-listener.js';
