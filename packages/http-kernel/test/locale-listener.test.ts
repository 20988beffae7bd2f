import { describe, expect, it } from 'vitest';
import {
  EventDispatcher,
  HttpKernel,
  NotFoundHttpError,
  Request,
  RequestType,
  Response,
  type Controller,
  type KernelEventMap,
} from '../src/index.js';
import { LocaleListener, type LocaleAware, type LocaleListenerOptions } from '../src/locale.js';
import { negotiateLocale } from '../src/http/accept-language.js';

interface Route {
  controller: Controller;
  defaults?: Record<string, unknown>;
}

/** A kernel with the locale listener, a path → route table at priority 32 and an error sub-request at −128. */
function localeKernel(routes: Record<string, Route>, options: LocaleListenerOptions) {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.addSubscriber(new LocaleListener(options));
  dispatcher.on(
    'kernel.request',
    (event) => {
      if (event.request.attributes.has('_controller')) return;
      const route = routes[event.request.path];
      if (route === undefined) throw new NotFoundHttpError(`No route found for "GET ${event.request.path}"`);
      event.request.attributes.set('_controller', route.controller);
      for (const [key, value] of Object.entries(route.defaults ?? {})) event.request.attributes.set(key, value);
    },
    32,
  );
  dispatcher.on(
    'kernel.exception',
    async (event) => {
      const errorPage = (request: Request) => new Response(`error page in ${request.locale}`, 404);
      const sub = event.request.duplicate({ attributes: [['_controller', errorPage]] });
      event.setResponse(await event.kernel.handle(sub, RequestType.SUB, false));
    },
    -128,
  );
  return new HttpKernel({ dispatcher });
}

const showLocale = (request: Request) => new Response(request.locale);

function get(path: string, acceptLanguage?: string): Request {
  return Request.fromUrl(`http://localhost${path}`, acceptLanguage === undefined ? {} : { headers: { 'accept-language': acceptLanguage } });
}

const enabled = { defaultLocale: 'en', enabledLocales: ['en', 'fr', 'de', 'pt_BR'] };

describe('LocaleListener', () => {
  const kernel = localeKernel(
    {
      '/': { controller: showLocale },
      '/fr/page': { controller: showLocale, defaults: { _locale: 'fr' } },
      '/xx/page': { controller: showLocale, defaults: { _locale: 'xx' } },
      '/bad/page': { controller: showLocale, defaults: { _locale: 'en\r\nSet-Cookie: a=b' } },
    },
    enabled,
  );

  it('takes the route _locale and does not vary on Accept-Language', async () => {
    const response = await kernel.handle(get('/fr/page', 'de'));
    expect(response.body).toBe('fr');
    expect(response.headers.get('vary')).toBeUndefined();
  });

  it('negotiates from Accept-Language by q-value and varies on it', async () => {
    const response = await kernel.handle(get('/', 'en;q=0.2, fr;q=0.9, de;q=0.5'));
    expect(response.body).toBe('fr');
    expect(response.headers.get('vary')).toBe('Accept-Language');
  });

  it('shortens a regional range and widens to a regional locale', async () => {
    expect((await kernel.handle(get('/', 'de-CH, fr;q=0.8'))).body).toBe('de');
    expect((await kernel.handle(get('/', 'pt, en;q=0.5'))).body).toBe('pt_BR');
    expect((await kernel.handle(get('/', 'PT-br'))).body).toBe('pt_BR');
  });

  it('falls back to the default locale for unsupported, excluded or malformed preferences', async () => {
    for (const header of ['ja, zh;q=0.9', 'fr;q=0, de;q=0', '*', ';;;q=abc, ,', 'fr;q=2', 'x'.repeat(9000)]) {
      const response = await kernel.handle(get('/', header));
      expect(response.body).toBe('en');
      expect(response.headers.get('vary')).toBe('Accept-Language');
    }
    expect((await kernel.handle(get('/'))).body).toBe('en');
  });

  it('ignores a route _locale that is not enabled or not a locale at all', async () => {
    expect((await kernel.handle(get('/xx/page', 'de'))).body).toBe('de');
    expect((await kernel.handle(get('/bad/page', 'fr'))).body).toBe('fr');
  });

  it('gives the error page the negotiated locale, without Vary: Accept-Language (main request never negotiated)', async () => {
    const response = await kernel.handle(get('/missing', 'fr-CA, en;q=0.1'));
    expect(response.status).toBe(404);
    expect(response.body).toBe('error page in fr');
    expect(response.headers.get('vary')).toBeUndefined();
  });

  it('restores the parent locale for locale-aware services after a sub-request', async () => {
    const calls: string[] = [];
    const translator: LocaleAware = { setLocale: (locale, request) => void calls.push(`${locale} ${request.rawPath}`) };
    let localeAfterSub = '';
    const fragment = (request: Request) => new Response(`fragment in ${request.locale}`);
    const page = async (request: Request) => {
      const sub = request.duplicate({
        attributes: [
          ['_controller', fragment],
          ['_locale', 'de'],
        ],
      });
      const inner = await pageKernel.handle(sub, RequestType.SUB);
      localeAfterSub = request.locale;
      return new Response(`${request.locale} / ${String(inner.body)}`);
    };
    const pageKernel = localeKernel(
      { '/fr/page': { controller: page, defaults: { _locale: 'fr' } } },
      { ...enabled, localeAware: [translator] },
    );
    const response = await pageKernel.handle(get('/fr/page'));
    expect(response.body).toBe('fr / fragment in de');
    expect(localeAfterSub).toBe('fr');
    expect(calls).toEqual(['fr /fr/page', 'de /fr/page', 'fr /fr/page']);
  });

  it('keeps concurrent requests apart', async () => {
    const slow = async (request: Request) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Response(request.locale);
    };
    const concurrent = localeKernel({ '/': { controller: slow } }, enabled);
    const answers = await Promise.all(['fr', 'de', 'en', 'fr', 'de'].map((lang) => concurrent.handle(get('/', lang))));
    expect(answers.map((response) => response.body)).toEqual(['fr', 'de', 'en', 'fr', 'de']);
  });

  it('with no enabled locales, takes any well-formed route _locale and does not negotiate', async () => {
    const open = localeKernel(
      { '/': { controller: showLocale, defaults: { _locale: 'nl' } }, '/plain': { controller: showLocale } },
      { defaultLocale: 'it' },
    );
    expect((await open.handle(get('/', 'fr'))).body).toBe('nl');
    const plain = await open.handle(get('/plain', 'fr'));
    expect(plain.body).toBe('it');
    expect(plain.headers.get('vary')).toBeUndefined();
  });
});

describe('negotiateLocale', () => {
  it('keeps header order among equal weights and returns the configured spelling', () => {
    expect(negotiateLocale('de, fr', ['fr', 'de'])).toBe('de');
    expect(negotiateLocale('EN-us', ['en_US', 'en'])).toBe('en_US');
    expect(negotiateLocale('en-GB', ['en_US'])).toBe('en_US');
    expect(negotiateLocale(undefined, ['en'])).toBeNull();
    expect(negotiateLocale('fr', [])).toBeNull();
  });
});
