import { LocaleListener, type EventDispatcher, type KernelEventMap } from '@switchboard/http-kernel';

/** The locale step: English by default, French and German negotiated from `Accept-Language` or taken from a route's `_locale`. */
export function wireLocale(host: { dispatcher: EventDispatcher<KernelEventMap> }): void {
  host.dispatcher.addSubscriber(new LocaleListener({ defaultLocale: 'en', enabledLocales: ['en', 'fr', 'de'] }));
}
