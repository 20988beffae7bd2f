import type { StandardSchemaV1 } from '@standard-schema/spec';
import {
  JsonResponse,
  nullLogger,
  type EventSubscriber,
  type KernelEventMap,
  type Logger,
  type ResponseEvent,
  type SubscribedEvents,
  type OwnedDeclarations,
} from '@switchboard/http-kernel';
import { andThen } from '@switchboard/http-kernel/internal';
import type { JsonSchema } from '../spec/openapi-types.js';
import { declarationFor, type ResponseSchemas } from '../responses/declare-responses.js';
import { jsonSchemaOf, type JsonSchemaConverter } from '../schema/json-schema-of.js';
import { compileProjection } from './compile-projection.js';
import { projectOntoSchema } from './project-onto-schema.js';

/** A value reduced to what a schema declares. */
type Projection = (value: unknown) => unknown;

export interface ResponseSchemaListenerOptions {
  /** Checks each answer against its schema, and reports every mismatch and every dropped member. */
  debug?: boolean;
  /** Receives the reports of debug mode, at WARNING on channel `openapi`. */
  logger?: Logger;
  /** The same converters as the document's, for libraries without Standard JSON Schema. */
  converters?: readonly JsonSchemaConverter[];
}

/** What debug mode found wrong with one answer: the request attribute `_response_schema_mismatch`, shown in the profile. */
export interface ResponseSchemaMismatch {
  readonly status: number;
  /** JSON Pointers of the members the schema does not declare, removed from the body. */
  readonly dropped: readonly string[];
  /** What the schema's validator says of the body as sent. */
  readonly issues: ReadonlyArray<{ readonly path: string; readonly message: string }>;
}

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** Set in debug mode by the ResponseSchemaListener when an answer did not match its declared schema. */
    _response_schema_mismatch?: ResponseSchemaMismatch;
  }
}

/**
 * Sends each `JsonResponse` of a route with `_responses` through the schema declared for its
 * status: members the schema does not declare are dropped, so an internal field never reaches a
 * client by accident. The response's `data` is filtered before its body is written, through a
 * projection compiled once per schema (`compileProjection`): the body is then written once, by
 * `JSON.stringify` (or the response's own serializer, NDJSON's for one). In debug mode the body as sent is also validated by the schema; a mismatch
 * or a dropped member is logged at WARNING and recorded as the request attribute
 * `_response_schema_mismatch` (the profiler shows it), and the body is not repaired.
 */
export class ResponseSchemaListener implements EventSubscriber<KernelEventMap> {
  /** After the controller, before `CorsListener.RESPONSE_PRIORITY` and the cache attribute's headers. */
  static readonly RESPONSE_PRIORITY = 16;

  readonly #debug: boolean;
  readonly #logger: Logger;
  readonly #converters: readonly JsonSchemaConverter[];
  /** A schema is converted once, at the first answer that uses it. */
  readonly #jsonSchemas = new WeakMap<StandardSchemaV1, JsonSchema>();
  /** And its projection compiled once. */
  readonly #projections = new WeakMap<JsonSchema, Projection>();
  /**
   * Per `_responses` value (routes share their defaults) and status: the projection to apply, or
   * `null` when that status declares no body schema. Looked up once, so an answer pays two map
   * reads before its projection, not the declaration's resolution.
   */
  readonly #byStatus = new WeakMap<ResponseSchemas, Map<number, Projection | null>>();

  constructor(options: ResponseSchemaListenerOptions = {}) {
    this.#debug = options.debug ?? false;
    this.#logger = (options.logger ?? nullLogger).child({ channel: 'openapi' });
    this.#converters = options.converters ?? [];
  }

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: ['_responses'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return { 'kernel.response': [this.onKernelResponse, ResponseSchemaListener.RESPONSE_PRIORITY] };
  }

  onKernelResponse(event: ResponseEvent): void | Promise<void> {
    const responses = event.request.attributes.get('_responses');
    const response = event.response;
    // A body set directly is no longer described by `data`: there is nothing to filter it by.
    if (responses === undefined || !(response instanceof JsonResponse) || !response.writtenFromData) return;
    if (!this.#debug) {
      const projection = this.#projectionFor(responses, response.status, event);
      if (projection !== null) response.data = projection(response.data);
      return;
    }
    const schema = declarationFor(responses, response.status)?.schema;
    if (schema === undefined) return;
    const route = String(event.request.attributes.get('_route') ?? 'unnamed');
    const { value, dropped } = projectOntoSchema(response.data, this.#jsonSchemaOf(schema, route, response.status));
    response.data = value;
    return andThen(schema['~standard'].validate(value), (outcome) => this.#report(event, route, dropped, outcome));
  }

  #projectionFor(responses: ResponseSchemas, status: number, event: ResponseEvent): Projection | null {
    let byStatus = this.#byStatus.get(responses);
    if (byStatus === undefined) {
      byStatus = new Map();
      this.#byStatus.set(responses, byStatus);
    }
    let projection = byStatus.get(status);
    if (projection === undefined) {
      const schema = declarationFor(responses, status)?.schema;
      const route = String(event.request.attributes.get('_route') ?? 'unnamed');
      projection = schema === undefined ? null : this.#projectionOf(this.#jsonSchemaOf(schema, route, status));
      byStatus.set(status, projection);
    }
    return projection;
  }

  #projectionOf(jsonSchema: JsonSchema): Projection {
    let projection = this.#projections.get(jsonSchema);
    if (projection === undefined) {
      projection = compileProjection(jsonSchema);
      this.#projections.set(jsonSchema, projection);
    }
    return projection;
  }

  #report(event: ResponseEvent, route: string, dropped: readonly string[], outcome: StandardSchemaV1.Result<unknown>): void {
    const issues = (outcome.issues ?? []).map((issue) => ({ path: pointerOf(issue.path ?? []), message: issue.message }));
    if (issues.length === 0 && dropped.length === 0) return;
    const status = event.response.status;
    event.request.attributes.set('_response_schema_mismatch', { status, dropped, issues });
    this.#logger.warn(
      { route, status, dropped, issues },
      `The ${status} answer of route "${route}" does not match its declared schema` +
        `${issues.length > 0 ? `: ${issues.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ')}` : ''}` +
        `${dropped.length > 0 ? ` (undeclared members dropped: ${dropped.join(', ')})` : ''}.`,
    );
  }

  #jsonSchemaOf(schema: StandardSchemaV1, route: string, status: number): JsonSchema {
    let converted = this.#jsonSchemas.get(schema);
    if (converted === undefined) {
      converted = jsonSchemaOf(schema, 'output', this.#converters, { route, describes: `the ${status} response` });
      this.#jsonSchemas.set(schema, converted);
    }
    return converted;
  }
}

function pointerOf(path: ReadonlyArray<PropertyKey | StandardSchemaV1.PathSegment>): string {
  return path
    .map((segment) => {
      const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
      return `/${String(typeof key === 'symbol' ? (key.description ?? '') : key)
        .replaceAll('~', '~0')
        .replaceAll('/', '~1')}`;
    })
    .join('');
}
