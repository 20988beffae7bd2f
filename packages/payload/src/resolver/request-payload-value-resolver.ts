import type {
  ArgumentMetadata,
  ControllerArgumentsEvent,
  EventSubscriber,
  KernelEventMap,
  Request,
  SubscribedEvents,
  TerminateEvent,
  ValueResolver,
  OwnedDeclarations,
} from '@switchboard/http-kernel';
import { assertPayloadOptions, isValueMapping, PAYLOAD_OPTION, type PayloadMapping } from '../argument/payload-options.js';
import { decodePayload, type DecodedPayload } from '../body/decode-payload.js';
import { MultipartUploads, type MultipartOptions } from '../multipart/multipart-uploads.js';
import { validatePayload } from '../validation/validate-payload.js';
import { validateValues } from '../validation/validate-values.js';
import { readValues } from '../values/read-values.js';
import { PendingPayload } from './pending-payload.js';

export interface RequestPayloadOptions {
  /** Largest body read for a payload, in bytes (default 1 MiB); larger is a 413. */
  maxBodyBytes?: number;
  /** Most violations listed in a 422 (default 100). */
  maxViolations?: number;
  /** Most fields read from a query string, an urlencoded form or a multipart body (default 1,000); more is a 413. */
  maxFields?: number;
  /** Limits and storage of `multipart/form-data` bodies (their total size is `maxBodyBytes`). */
  multipart?: MultipartOptions;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_VIOLATIONS = 100;
export const DEFAULT_MAX_FIELDS = 1000;

/**
 * Maps controller arguments declared with `mapPayload` (or `options.payload`) from the JSON
 * body, the query string, a form body, request headers or cookies, validated by their Standard Schema.
 *
 * Two roles, registered in two places: as a `ValueResolver` of the kernel's ArgumentResolver it
 * claims the argument with a `PendingPayload`; as a `kernel.controller_arguments` listener at
 * `CONTROLLER_ARGUMENTS_PRIORITY` it reads, decodes and validates, then replaces the placeholder. Reading the body
 * there, not during argument resolution, keeps it behind the authorization check (`IsGrantedListener`): a client
 * that may not call the controller learns nothing about its payload rules.
 *
 * Failures are HTTP errors for the normal error flow: 400 malformed body, 413 too large (bytes, or
 * fields of a query string or form), 415 wrong
 * media type, 422 with `details.violations` (`[{ path, message }]`); a refused header or cookie is
 * a 400 with `details.violations` pointing at it (`/headers/x-tenant`). The controller is called
 * only with a payload that passed its schema.
 */
export class RequestPayloadValueResolver implements ValueResolver, EventSubscriber<KernelEventMap> {
  /** After the same-origin, authorization and cache attribute checks (each one's `CONTROLLER_ARGUMENTS_PRIORITY`). */
  static readonly CONTROLLER_ARGUMENTS_PRIORITY = 0;
  /** Before the profiler saves (−1024), so a profile is never waiting on files nobody needs. */
  static readonly TERMINATE_PRIORITY = 0;

  readonly name = 'request_payload';
  readonly #maxBodyBytes: number;
  readonly #maxViolations: number;
  readonly #maxFields: number;
  readonly #uploads: MultipartUploads;
  /** Declarations already checked: a route's declaration is the same object on every request. */
  readonly #checkedOptions = new WeakSet<object>();

  constructor(options: RequestPayloadOptions = {}) {
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#maxViolations = options.maxViolations ?? DEFAULT_MAX_VIOLATIONS;
    this.#maxFields = options.maxFields ?? DEFAULT_MAX_FIELDS;
    if (!(Number.isSafeInteger(this.#maxFields) && this.#maxFields >= 0)) {
      throw new RangeError(`maxFields must be a whole number of fields, got ${this.#maxFields}.`);
    }
    this.#uploads = new MultipartUploads(options.multipart);
  }

  resolve(_request: Request, argument: ArgumentMetadata): readonly unknown[] | null {
    const options = argument.options?.[PAYLOAD_OPTION];
    if (options === undefined) return null;
    if (argument.variadic) throw new TypeError(`The payload argument "${argument.name}" cannot be variadic.`);
    if (!this.#checkedOptions.has(options as object)) {
      assertPayloadOptions(options, argument.name);
      this.#checkedOptions.add(options);
    }
    return [new PendingPayload(argument, options as PayloadMapping)];
  }

  /** An argument with a payload declaration (`mapPayload`); checked before serving, without a request. */
  canResolve(argument: ArgumentMetadata): boolean {
    return argument.options?.[PAYLOAD_OPTION] !== undefined;
  }

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { argumentOptions: [PAYLOAD_OPTION] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.controller_arguments': [this.onControllerArguments, RequestPayloadValueResolver.CONTROLLER_ARGUMENTS_PRIORITY],
      'kernel.terminate': [this.onTerminate, RequestPayloadValueResolver.TERMINATE_PRIORITY],
    };
  }

  /** Deletes the temporary files of the request's uploads, if it had any. */
  onTerminate(event: TerminateEvent): void | Promise<void> {
    return this.#uploads.removeFilesOf(event.request);
  }

  onControllerArguments(event: ControllerArgumentsEvent): void | Promise<void> {
    if (!event.arguments.some((value) => value instanceof PendingPayload)) return;
    return this.#mapAll(event);
  }

  async #mapAll(event: ControllerArgumentsEvent): Promise<void> {
    const mapped: unknown[] = [];
    for (const value of event.arguments) {
      mapped.push(value instanceof PendingPayload ? await this.#map(event.request, value) : value);
    }
    event.setArguments(mapped);
  }

  async #map(request: Request, pending: PendingPayload): Promise<unknown> {
    const { argument, options } = pending;
    if (isValueMapping(options)) return validateValues(options, readValues(request, options), argument.name, this.#maxViolations);
    const limits = { maxBodyBytes: options.maxBodyBytes ?? this.#maxBodyBytes, maxFields: options.maxFields ?? this.#maxFields };
    const decoded: DecodedPayload =
      options.from === 'multipart'
        ? await this.#uploads.decode(request, options, limits)
        : await decodePayload(request, options.from, limits);
    if (decoded.empty && argument.hasDefault) return argument.defaultValue;
    // An empty body is validated as `undefined`: the schema decides whether the payload is optional.
    return validatePayload(options.schema, decoded.empty ? undefined : decoded.value, argument.name, this.#maxViolations);
  }
}
