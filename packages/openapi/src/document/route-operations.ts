import { declaredEncoders, type Encoder } from '@switchboard/http-kernel/view';
import { statusText } from '@switchboard/http-kernel/internal';
import type { Route } from '@switchboard/router';
import { assertResponseSchemas, RESPONSES_DEFAULT, responseDeclarationOf, type ResponseSchemas } from '../responses/declare-responses.js';
import type { OpenApiContributor, OperationContribution } from '../contributor/openapi-contributor.js';
import { errorResponsesFor, sharedHeaders, type SharedHeaderName } from '../responses/error-responses.js';
import { jsonSchemaOf, type JsonSchemaConverter, SchemaConversionError } from '../schema/json-schema-of.js';
import type { SchemaComponents } from '../schema/schema-components.js';
import type {
  HttpMethod,
  JsonSchema,
  MediaTypeObject,
  Operation,
  Parameter,
  Reference,
  RequestBody,
  ResponseObject,
  SecurityRequirement,
} from '../spec/openapi-types.js';
import { hostServer, pathVariants } from './path-template.js';
import { routePayloads, type RoutePayload, type RouteValue } from './route-payloads.js';
import { sortedRecord } from '../spec/stable-order.js';

/** What turning routes into operations needs besides the route. */
export interface OperationContext {
  readonly components: SchemaComponents;
  readonly converters: readonly JsonSchemaConverter[];
  /** What the packages acting on route defaults say of each operation. */
  readonly contributors: readonly OpenApiContributor[];
  /** Methods documented for a route that accepts every method. */
  readonly anyMethod: readonly HttpMethod[];
  /** The view layer's encoders, for the media types of routes that declare `_formats`. */
  readonly encoders: readonly Encoder[] | undefined;
}

/** One documented operation: where it goes in `paths`. */
export interface PlacedOperation {
  readonly path: string;
  readonly method: HttpMethod;
  readonly operation: Operation;
}

const BODY_MEDIA_TYPES = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
} as const;

/** The operations of one route: one per method and path variant. */
export function routeOperations(route: Route, context: OperationContext): PlacedOperation[] {
  const methods = route.methods.length === 0 ? context.anyMethod : route.methods.map((method) => method.toLowerCase() as HttpMethod);
  const { payloads, values } = routePayloads(route);
  const query = queryParameters(route, payloads, context);
  const headersAndCookies = values.map((value) => valueParameter(route, value, context));
  const requestBody = bodyOf(route, payloads, context);
  const server = hostServer(route);
  const formats = declaredEncoders(route.defaults, context.encoders, route.name);
  const placed: PlacedOperation[] = [];
  pathVariants(route, (name) => parameterSchemaOf(route, name, context)).forEach((variant, index) => {
    const contributions = context.contributors.flatMap(
      (contributor) => contributor.describeOperation({ route, pathTemplate: variant.template }) ?? [],
    );
    const security = contributions.find((contribution) => contribution.security !== undefined)?.security;
    const declared = declaredResponses(route, formats, contributions, context);
    const errors = errorResponsesFor({
      readsBody: requestBody !== undefined,
      readsQuery: query.length > 0,
      validatesParameters: Object.keys(route.params).length > 0 || values.length > 0,
      negotiatesFormat: formats !== null,
      contributed: contributions.flatMap((contribution) => contribution.responses ?? []),
    });
    for (const method of methods) {
      const parameters = [...variant.parameters, ...query, ...headersAndCookies];
      // Keys in the order OpenAPI lists them, for a document that reads (and diffs) the same way everywhere.
      const operation: Operation = {
        operationId: operationId(route.name, method, methods.length, index),
        ...(server === null ? {} : { servers: [server] }),
        ...(parameters.length === 0 ? {} : { parameters }),
        ...(requestBody === undefined || method === 'get' || method === 'head' ? {} : { requestBody }),
        responses: sortedRecord<ResponseObject | Reference>({ ...errors, ...declared }),
        ...(security === undefined ? {} : { security: security.map((requirement) => copyOf(requirement)) }),
      };
      placed.push({ path: variant.template, method, operation });
    }
  });
  return placed;
}

/** A path parameter's route schema, converted as the value the controller receives (the path itself is text). */
function parameterSchemaOf(route: Route, name: string, context: OperationContext): JsonSchema | undefined {
  const schema = route.params[name];
  if (schema === undefined) return undefined;
  const converted = jsonSchemaOf(schema, 'output', context.converters, { route: route.name, describes: `the path parameter "${name}"` });
  const { $schema: _dialect, ...rest } = converted as Record<string, unknown>;
  return rest as JsonSchema;
}

function operationId(name: string, method: HttpMethod, methodCount: number, variant: number): string {
  return `${name}${methodCount > 1 ? `_${method}` : ''}${variant > 0 ? `_${variant + 1}` : ''}`;
}

/**
 * A header or cookie the controller reads, typed as its schema takes it (the value on the wire).
 * Required unless the schema accepts an absent value: asking the schema itself works whatever
 * the validator, where reading its JSON Schema would depend on how each library writes optionality.
 */
function valueParameter(route: Route, value: RouteValue, context: OperationContext): Parameter {
  const describes = `the ${value.in} "${value.name}" of "${value.argument}"`;
  const converted = jsonSchemaOf(value.schema, 'input', context.converters, { route: route.name, describes });
  const { $schema: _dialect, ...schema } = converted as Record<string, unknown>;
  const absent = value.schema['~standard'].validate(undefined);
  const required = absent instanceof Promise || absent.issues !== undefined;
  return { name: value.name, in: value.in, required, schema: schema as JsonSchema };
}

/** Each property of a query payload's schema is a query parameter. */
function queryParameters(route: Route, payloads: readonly RoutePayload[], context: OperationContext): Parameter[] {
  const parameters: Parameter[] = [];
  for (const payload of payloads.filter((candidate) => candidate.from === 'query')) {
    const describes = `the query payload "${payload.argument}"`;
    const schema = embed(payload, 'input', route, describes, context);
    const properties = schema['properties'];
    if (schema['type'] !== 'object' || !isObject(properties)) {
      throw new SchemaConversionError(
        `Route "${route.name}": ${describes} must be an object schema with properties to become query parameters.`,
      );
    }
    const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
    for (const [name, property] of Object.entries(properties)) {
      parameters.push({ name, in: 'query', required: required.includes(name), schema: property as JsonSchema });
    }
  }
  return parameters;
}

/**
 * The JSON, form or multipart payloads; several read the same body, so it must satisfy every
 * schema. A multipart file is whatever the schema library says of a file (`z.file()`: a binary
 * string, which is how OpenAPI 3.1 describes a file part).
 */
function bodyOf(route: Route, payloads: readonly RoutePayload[], context: OperationContext): RequestBody | undefined {
  const content: Record<string, MediaTypeObject> = {};
  let required = false;
  for (const from of ['json', 'form', 'multipart'] as const) {
    const read = payloads.filter((payload) => payload.from === from);
    if (read.length === 0) continue;
    const schemas = read.map((payload) => embed(payload, 'input', route, `the ${from} body "${payload.argument}"`, context));
    content[BODY_MEDIA_TYPES[from]] = { schema: schemas.length === 1 ? schemas[0]! : { allOf: schemas } };
    required ||= read.some((payload) => payload.required);
  }
  return Object.keys(content).length === 0 ? undefined : { required, content };
}

function embed(payload: RoutePayload, direction: 'input', route: Route, describes: string, context: OperationContext): JsonSchema {
  const schema = jsonSchemaOf(payload.schema, direction, context.converters, { route: route.name, describes });
  return context.components.embed(schema, `${route.name}.${payload.argument}`);
}

/**
 * The responses of the route's `_responses` default, each body under the media types of the
 * route's `formats` (the view layer's encoders) when it declares some; without one, a generic success.
 */
function declaredResponses(
  route: Route,
  formats: readonly Encoder[] | null,
  contributions: readonly OperationContribution[],
  context: OperationContext,
): Record<string, ResponseObject> {
  const value = route.defaults[RESPONSES_DEFAULT];
  if (value === undefined) return { '2XX': { description: 'Success (the answer is not declared: see the `_responses` route option).' } };
  assertResponseSchemas(value, route.name);
  const successHeaders = [...new Set<SharedHeaderName>(contributions.flatMap((contribution) => contribution.successHeaders ?? []))];
  const responses: Record<string, ResponseObject> = {};
  for (const [status, declared] of Object.entries(value as ResponseSchemas)) {
    const declaration = responseDeclarationOf(declared);
    const response: ResponseObject = { description: declaration.description ?? describeStatus(status) };
    const headers: NonNullable<ResponseObject['headers']> = {};
    if (status.startsWith('2')) Object.assign(headers, sharedHeaders(successHeaders));
    for (const [name, header] of Object.entries(declaration.headers ?? {})) {
      headers[name] = { ...header, schema: header.schema ?? { type: 'string' } };
    }
    if (Object.keys(headers).length > 0) response.headers = headers;
    if (declaration.schema !== undefined) {
      const converted = jsonSchemaOf(declaration.schema, 'output', context.converters, {
        route: route.name,
        describes: `the ${status} response`,
      });
      const schema = context.components.embed(converted, `${route.name}.${status}`);
      response.content =
        declaration.contentType !== undefined || formats === null
          ? { [declaration.contentType ?? 'application/json']: { schema } }
          : mediaTypesOf(formats, schema);
    }
    responses[status] = response;
  }
  return responses;
}

/**
 * One entry per declared format. A sequence format (NDJSON, event streams) sends a list one element
 * per document, so its schema is that of an element.
 */
function mediaTypesOf(formats: readonly Encoder[], schema: JsonSchema): Record<string, MediaTypeObject> {
  const items = schema['type'] === 'array' && isObject(schema['items']) ? (schema['items'] as JsonSchema) : null;
  const content: Record<string, MediaTypeObject> = {};
  for (const encoder of formats) content[encoder.mediaType] = { schema: encoder.sequence === true && items !== null ? items : schema };
  return content;
}

function describeStatus(status: string): string {
  if (status === 'default') return 'Any other answer.';
  if (status.endsWith('XX')) return `Any ${status} answer.`;
  return statusText(Number(status)) || `Status ${status}.`;
}

/** A requirement of the document's own, whatever the contributor keeps. */
function copyOf(requirement: SecurityRequirement): SecurityRequirement {
  return Object.fromEntries(Object.entries(requirement).map(([name, scopes]) => [name, [...scopes]]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
