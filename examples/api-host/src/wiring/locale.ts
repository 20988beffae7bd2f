import { LocaleListener } from '@switchboard/http-kernel/locale';
import type { Wiring } from './wiring.js';

/** The locale step: English by default, French and German negotiated from `Accept-Language` or taken from a route's `_locale`. */
export function wireLocale(): Wiring {
  return { subscribers: [new LocaleListener({ defaultLocale: 'en', enabledLocales: ['en', 'fr', 'de'] })] };
}
