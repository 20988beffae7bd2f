import type { EventSubscriber, SubscribedEvents } from '../dispatcher/types.js';
import type { OwnedDeclarations } from '../declaration/route-declaration.js';
import type { FinishRequestEvent } from '../event/finish-request-event.js';
import type { KernelEventMap } from '../event/kernel-events.js';
import type { RequestEvent } from '../event/request-event.js';
import type { ResponseEvent } from '../event/response-event.js';
import { negotiateLocale, normaliseLocale } from '../http/accept-language.js';
import type { Request } from '../http/request.js';
import { addVary } from '../http/vary.js';

/** Something that must follow the current locale (a translator, a URL generator's context). */
export interface LocaleAware {
  /** Called with the request whose locale it is, so per-request-chain state can be keyed on it. */
  setLocale(locale: string, request: Request): void;
}

export interface LocaleListenerOptions {
  /** The locale of a request nothing else decided; default `en`. */
  defaultLocale?: string;
  /** Locales the application speaks. Empty (default): any well-formed route `_locale`, no negotiation. */
  enabledLocales?: readonly string[];
  /** Negotiate from `Accept-Language` when the route gives no `_locale`; default: on when locales are enabled. */
  fromAcceptLanguage?: boolean;
  localeAware?: readonly LocaleAware[];
}

/** A language tag's shape; anything else from a URL is not a locale and is ignored. */
const LOCALE_SHAPE = /^[a-z]{2,8}(?:-[a-z0-9]{1,8})*$/;

/**
 * Gives every request (main and sub) its locale, readable by controllers and error pages as
 * `request.locale`:
 * - `kernel.request` (`DEFAULT_LOCALE_PRIORITY`): the default locale, before anything may need it;
 * - `kernel.request` (`REQUEST_PRIORITY`), after routing: the route's `_locale` when it is an enabled locale,
 *   else the best match of `Accept-Language` among the enabled locales (the response then varies
 *   on `Accept-Language`), else the default stays;
 * - `kernel.response` (`RESPONSE_PRIORITY`): `Vary: Accept-Language` on main requests whose locale was negotiated;
 * - `kernel.finish_request` (`FINISH_REQUEST_PRIORITY`): after a sub-request, locale-aware services get the parent's locale back.
 */
export class LocaleListener implements EventSubscriber<KernelEventMap> {
  static readonly DEFAULT_LOCALE_PRIORITY = 100;
  /** After `RouterListener.REQUEST_PRIORITY` filled `_locale`, before `FirewallListener.REQUEST_PRIORITY`. */
  static readonly REQUEST_PRIORITY = 16;
  static readonly RESPONSE_PRIORITY = 0;
  static readonly FINISH_REQUEST_PRIORITY = 0;

  readonly defaultLocale: string;
  readonly enabledLocales: readonly string[];
  readonly #enabled: readonly string[];
  readonly #fromAcceptLanguage: boolean;
  readonly #localeAware: readonly LocaleAware[];
  /** Requests whose locale came from `Accept-Language`; keyed by the request, gone with it. */
  readonly #negotiated = new WeakSet<Request>();

  constructor(options: LocaleListenerOptions = {}) {
    this.defaultLocale = options.defaultLocale ?? 'en';
    this.enabledLocales = options.enabledLocales ?? [];
    this.#enabled = this.enabledLocales.map(normaliseLocale);
    this.#fromAcceptLanguage = options.fromAcceptLanguage ?? this.enabledLocales.length > 0;
    this.#localeAware = options.localeAware ?? [];
  }

  /** The route declarations this listener acts on (a route with one needs it registered), and the attribute it sets. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: ['_locale'], requestAttributes: ['_locale'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': [
        [this.setDefaultLocale, LocaleListener.DEFAULT_LOCALE_PRIORITY],
        [this.onKernelRequest, LocaleListener.REQUEST_PRIORITY],
      ],
      'kernel.response': [this.onKernelResponse, LocaleListener.RESPONSE_PRIORITY, { mainRequestOnly: true }],
      'kernel.finish_request': [this.onKernelFinishRequest, LocaleListener.FINISH_REQUEST_PRIORITY, { subRequestOnly: true }],
    };
  }

  setDefaultLocale(event: RequestEvent): void {
    event.request.defaultLocale = this.defaultLocale;
  }

  onKernelRequest(event: RequestEvent): void {
    const request = event.request;
    const fromRoute = this.#enabledSpelling(request.attributes.get('_locale'));
    if (fromRoute !== null) {
      request.locale = fromRoute;
    } else if (this.#fromAcceptLanguage) {
      this.#negotiated.add(request);
      const preferred = negotiateLocale(request.headers.getAll('accept-language').join(', '), this.enabledLocales);
      if (preferred !== null) request.locale = preferred;
    }
    this.#notify(request);
  }

  /**
   * Main requests only, as Symfony does: an error sub-request negotiates its own locale, but
   * its page must keep the error page's documented headers (`Vary: Accept` alone on the 404, docs/errors.md).
   */
  onKernelResponse(event: ResponseEvent): void {
    if (this.#negotiated.has(event.request)) addVary(event.response.headers, 'Accept-Language');
  }

  /** Once a sub-request is done, the parent's locale is the chain's again (a main request has no parent to restore). */
  onKernelFinishRequest(event: FinishRequestEvent): void {
    if (this.#localeAware.length === 0) return;
    // A sub-request handled on its own has no parent.
    const parent = event.request.requestStack?.getParentRequest() ?? null;
    if (parent !== null) this.#notify(parent);
  }

  /** The configured spelling of a route `_locale`, or `null` when it is not one we speak. */
  #enabledSpelling(value: unknown): string | null {
    if (typeof value !== 'string') return null;
    const locale = normaliseLocale(value);
    if (!LOCALE_SHAPE.test(locale)) return null;
    if (this.#enabled.length === 0) return value;
    const index = this.#enabled.indexOf(locale);
    return index < 0 ? null : this.enabledLocales[index]!;
  }

  #notify(request: Request): void {
    for (const service of this.#localeAware) service.setLocale(request.locale, request);
  }
}
