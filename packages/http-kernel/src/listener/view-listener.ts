import type { EventSubscriber, SubscribedEvents } from '../dispatcher/types.js';
import type { OwnedDeclarations } from '../declaration/route-declaration.js';
import { NotAcceptableHttpError } from '../error/not-acceptable-http-error.js';
import type { KernelEventMap } from '../event/kernel-events.js';
import type { ViewEvent } from '../event/view-event.js';
import type { HeaderInit } from '../http/header-bag.js';
import { defaultResponseHeaders, ResponseHeaderBag } from '../http/response-header-bag.js';
import type { Request } from '../http/request.js';
import { MediaTypeNegotiator } from '../http/media-type-negotiator.js';
import { addVary } from '../http/vary.js';
import type { Encoder } from '../view/encoder.js';
import { BUILT_IN_ENCODERS, DEFAULT_FORMATS, DEFAULT_STREAM_FORMATS, encoderTable, encodersOf, FORMATS_DEFAULT } from '../view/formats.js';
import { View } from '../view/view.js';

export interface ViewListenerOptions {
  /** Encoders besides JSON, NDJSON and event streams (`csv`…); one with a built-in's name replaces it. */
  encoders?: readonly Encoder[];
}

/** The formats a route offers, in order, and the negotiator of their media types. */
interface Offer {
  readonly encoders: readonly Encoder[];
  readonly negotiator: MediaTypeNegotiator;
}

/**
 * Answers controllers that return data instead of a `Response` (`kernel.view`, `VIEW_PRIORITY`):
 * plain data or a `view(data, { status, headers })`. The format is the one `Accept` prefers among the
 * route's `_formats` (default `['json']`; for an async iterable, `['ndjson', 'event-stream']`),
 * through the kernel's `MediaTypeNegotiator`; the answer carries `Vary: Accept`. When the client
 * accepts none, a `NotAcceptableHttpError` (406) lists what the route offers. An async iterable
 * is written as it comes, by a format that streams. `undefined` is left alone: a controller that
 * returns nothing is a mistake the kernel reports.
 */
export class ViewListener implements EventSubscriber<KernelEventMap> {
  static readonly VIEW_PRIORITY = 0;

  readonly #encoders: ReadonlyMap<string, Encoder>;
  /** Per `_formats` value (routes share their defaults), and per stream or value: parsed once. */
  readonly #offers = new WeakMap<readonly unknown[], { value?: Offer; stream?: Offer }>();
  /** Those of the routes that declare no formats (most routes), without a map lookup. */
  readonly #undeclared: { value?: Offer; stream?: Offer } = {};

  constructor(options: ViewListenerOptions = {}) {
    this.#encoders = encoderTable([...BUILT_IN_ENCODERS, ...(options.encoders ?? [])]);
  }

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: [FORMATS_DEFAULT] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return { 'kernel.view': [this.onKernelView, ViewListener.VIEW_PRIORITY] };
  }

  onKernelView(event: ViewEvent): void {
    const result = event.controllerResult;
    if (result === undefined) return;
    const isView = result instanceof View;
    const data: unknown = isView ? result.data : result;
    const request = event.request;
    const stream = isAsyncIterable(data);
    const offer = this.#offerOf(request.attributes.get(FORMATS_DEFAULT), stream, request);
    const mediaType = offer.negotiator.negotiate(request.headers.getAll('accept').join(', ') || undefined);
    if (mediaType === null) throw new NotAcceptableHttpError(offer.negotiator.offered);
    const encoder = offer.encoders[offer.negotiator.offered.indexOf(mediaType)]!;
    const headers = isView ? result.headers : undefined;
    const context = {
      request,
      status: isView ? result.status : 200,
      headers: headers === undefined ? varyAcceptOnly() : varyAccept(headers),
    };
    event.setResponse(stream ? encoder.encodeStream!(data, context) : encoder.encode!(data, context));
  }

  #offerOf(formats: readonly string[] | undefined, stream: boolean, request: Request): Offer {
    let offers = formats === undefined ? this.#undeclared : this.#offers.get(formats);
    if (offers === undefined) {
      offers = {};
      // Not a list (a mistake `encodersOf` names below): nothing to key the offers by.
      if (typeof formats === 'object' && formats !== null) this.#offers.set(formats, offers);
    }
    const kind = stream ? 'stream' : 'value';
    let offer = offers[kind];
    if (offer === undefined) {
      const key = formats ?? (stream ? DEFAULT_STREAM_FORMATS : DEFAULT_FORMATS);
      const route = String(request.attributes.get('_route') ?? 'unnamed');
      const encoders = encodersOf(key, this.#encoders, route).filter(
        (encoder) => (stream ? encoder.encodeStream : encoder.encode) !== undefined,
      );
      if (encoders.length === 0) {
        throw new TypeError(
          `Route "${route}" offers no format that can write ${stream ? 'an async iterable' : 'a value'} (${key.join(', ')}).`,
        );
      }
      offer = { encoders, negotiator: new MediaTypeNegotiator(encoders.map((encoder) => encoder.mediaType)) };
      offers[kind] = offer;
    }
    return offer;
  }
}

/** The headers of an answer whose controller gave none: what every view answer starts with, made at once. */
function varyAcceptOnly(): ResponseHeaderBag {
  return defaultResponseHeaders('vary', 'Accept');
}

/** A view's own headers, and `Accept` in their `Vary`. */
function varyAccept(headers: HeaderInit): ResponseHeaderBag {
  const bag = new ResponseHeaderBag(headers);
  addVary(bag, 'Accept');
  return bag;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
