import {
  addVary,
  defineController,
  HttpError,
  RequestType,
  type ControllerArgumentsEvent,
  type EventSubscriber,
  type KernelEventMap,
  type Request,
  type ResponseEvent,
  type SubscribedEvents,
  type OwnedDeclarations,
} from '@switchboard/http-kernel';
import { cacheControlValue } from '../options/cache-control-value.js';
import { assertCacheOptions, type CacheOptions } from '../options/cache-options.js';
import { entityTag } from '../validators/entity-tag.js';
import { notModifiedResponse, type Validators } from '../validators/not-modified.js';
import { evaluatePreconditions } from '../validators/preconditions.js';

/**
 * Applies a route's `_cache` declaration:
 * - `kernel.controller_arguments` (`CONTROLLER_ARGUMENTS_PRIORITY`): computes the ETag / Last-Modified from the request and the
 *   controller arguments; when a GET/HEAD main request's copy is current, the controller is
 *   replaced by one answering 304 and the remaining argument listeners (payload mapping) are
 *   skipped — the body is never read, the controller never runs; a main request whose precondition
 *   fails (`If-Match`, `If-Unmodified-Since`, or `If-None-Match` on a write) gets a 412 instead;
 * - `kernel.response` (`RESPONSE_PRIORITY`): on a 2xx or 304 response, sets `Cache-Control` unless the controller
 *   set its own, merges `Vary`, and sets the validators the controller did not set. Any other
 *   status (an error above all) is left alone, so the default rule gives it `no-cache, private`.
 */
export class CacheAttributeListener implements EventSubscriber<KernelEventMap> {
  /**
   * After `SameOriginListener` and `IsGrantedListener` (their `CONTROLLER_ARGUMENTS_PRIORITY`),
   * before `RequestPayloadValueResolver.CONTROLLER_ARGUMENTS_PRIORITY`: a current copy skips the body.
   */
  static readonly CONTROLLER_ARGUMENTS_PRIORITY = 10;
  /** After the controller's headers and `CorsListener.RESPONSE_PRIORITY`. */
  static readonly RESPONSE_PRIORITY = -10;

  /** Validators computed for a request, until its response is filtered. */
  readonly #validators = new WeakMap<Request, Validators>();
  /**
   * A route's `_cache` object is shared by every request of the route: it is checked and its
   * Cache-Control value built on first use, not on every request.
   */
  readonly #cacheControlByOptions = new WeakMap<CacheOptions, string | null>();

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: ['_cache'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.controller_arguments': [this.onControllerArguments, CacheAttributeListener.CONTROLLER_ARGUMENTS_PRIORITY],
      'kernel.response': [this.onKernelResponse, CacheAttributeListener.RESPONSE_PRIORITY],
    };
  }

  onControllerArguments(event: ControllerArgumentsEvent): void | Promise<void> {
    const options = event.request.attributes.get('_cache');
    if (options === undefined) return;
    this.#cacheControlOf(options);
    if (options.etag === undefined && options.lastModified === undefined) return;
    return this.#evaluateValidators(event, options);
  }

  onKernelResponse(event: ResponseEvent): void {
    const options = event.request.attributes.get('_cache');
    if (options === undefined) return;
    const response = event.response;
    // Errors are never cached: they keep whatever the error path and the default rule give them.
    if (!response.isSuccessful && response.status !== 304) return;
    const cacheControl = this.#cacheControlOf(options);
    const headers = response.headers;
    if (cacheControl !== null && headers.statedCacheControl === undefined) headers.set('cache-control', cacheControl);
    if (options.vary !== undefined) addVary(headers, ...options.vary);
    const validators = this.#validators.get(event.request);
    if (validators === undefined || response.status === 304) return;
    if (validators.etag !== null && !headers.has('etag')) headers.set('etag', validators.etag);
    if (validators.lastModified !== null && !headers.has('last-modified')) {
      headers.set('last-modified', validators.lastModified.toUTCString());
    }
  }

  /** Checks a declaration (a misspelt one throws on every request) and returns its Cache-Control value. */
  #cacheControlOf(options: CacheOptions): string | null {
    let value = this.#cacheControlByOptions.get(options);
    if (value === undefined) {
      assertCacheOptions(options);
      value = cacheControlValue(options);
      this.#cacheControlByOptions.set(options, value);
    }
    return value;
  }

  async #evaluateValidators(event: ControllerArgumentsEvent, options: CacheOptions): Promise<void> {
    const { request } = event;
    const tag = options.etag === undefined ? null : await options.etag(request, event.arguments);
    const modified = options.lastModified === undefined ? null : await options.lastModified(request, event.arguments);
    if (modified !== null && modified !== undefined && !(modified instanceof Date && !Number.isNaN(modified.getTime()))) {
      throw new TypeError('The _cache lastModified function must return a valid Date (or null).');
    }
    if (tag !== null && tag !== undefined && typeof tag !== 'string') {
      throw new TypeError('The _cache etag function must return a string (or null).');
    }
    const validators: Validators = { etag: tag ? entityTag(tag) : null, lastModified: modified ?? null };
    this.#validators.set(request, validators);
    if (event.requestType !== RequestType.MAIN) return;
    const outcome = evaluatePreconditions(request, validators);
    if (outcome === 'precondition-failed') throw new HttpError(412, 'The resource does not match the request preconditions.');
    if (outcome === 'proceed') return;
    const notModified = notModifiedResponse(validators);
    event.setController(defineController([], () => notModified, 'CacheAttributeListener.notModified'));
    event.setArguments([]);
    event.stopPropagation();
  }
}
