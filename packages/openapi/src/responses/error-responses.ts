import type { JsonSchema, OpenApiComponents, Reference, ResponseHeader, ResponseObject } from '../spec/openapi-types.js';

/**
 * The error answers a Switchboard app gives, as reusable components. Errors go through the error
 * controller, which negotiates the format: `application/problem+json` (RFC 9457) for JSON clients,
 * HTML or plain text otherwise. The bearer authenticator answers 401 itself, in its own JSON shape.
 */
const PROBLEM: JsonSchema = {
  type: 'object',
  description: 'A problem document (RFC 9457). In debug mode it also carries the error class and trace.',
  properties: {
    type: { type: 'string', description: '`about:blank`: the status says what happened.' },
    title: { type: 'string', description: 'The status reason phrase.' },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    detail: { type: 'string', description: 'The error message in debug mode, the reason phrase otherwise.' },
    instance: { type: 'string' },
  },
  required: ['type', 'title', 'status'],
};

const VIOLATION: JsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'JSON Pointer (RFC 6901) into the payload; empty for the payload as a whole.' },
    message: { type: 'string' },
  },
  required: ['path', 'message'],
};

const VALIDATION_PROBLEM: JsonSchema = {
  allOf: [
    { $ref: '#/components/schemas/Problem' },
    {
      type: 'object',
      properties: { violations: { type: 'array', items: { $ref: '#/components/schemas/Violation' } } },
      required: ['violations'],
    },
  ],
};

const NOT_ACCEPTABLE_PROBLEM: JsonSchema = {
  allOf: [
    { $ref: '#/components/schemas/Problem' },
    {
      type: 'object',
      properties: {
        available: { type: 'array', items: { type: 'string' }, description: 'The media types the route offers.' },
      },
      required: ['available'],
    },
  ],
};

const AUTHENTICATION_FAILURE: JsonSchema = {
  type: 'object',
  description: 'The bearer authenticator’s refusal: no token, or an invalid or expired one.',
  properties: { code: { type: 'integer', const: 401 }, message: { type: 'string' } },
  required: ['code', 'message'],
};

const HEADERS = {
  Allow: { description: 'The methods the path accepts.', required: true, schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'The bearer challenge (RFC 6750).', required: true, schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'string' } },
  'Cache-Control': { description: 'How long caches may keep the answer.', required: true, schema: { type: 'string' } },
  ETag: { description: 'The entity tag, for `If-None-Match`.', schema: { type: 'string' } },
  'Last-Modified': { description: 'When the resource last changed, for `If-Modified-Since`.', schema: { type: 'string' } },
} satisfies Record<string, ResponseHeader>;

/** The shared headers (`#/components/headers`), by name. */
export type SharedHeaderName = keyof typeof HEADERS;

/** The error statuses a route may answer, by component name. */
export const ERROR_RESPONSES = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  UnprocessableContent: 422,
  TooManyRequests: 429,
} as const;

export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

/** The shared responses (`#/components/responses`): the errors, and the 304 of a cached route. */
export type SharedResponseName = ErrorResponseName | 'NotModified';

const DESCRIPTIONS: Record<ErrorResponseName, string> = {
  BadRequest: 'The request is malformed (a body that is not valid JSON or UTF-8, a malformed path).',
  Unauthorized: 'No valid credentials: the token is missing, invalid or expired.',
  Forbidden: 'The user may not do this (`_is_granted`).',
  NotFound: 'No such route or resource.',
  MethodNotAllowed: 'The path exists, but not for this method; `Allow` lists the methods it accepts.',
  NotAcceptable: 'The `Accept` header accepts none of the media types the route offers; `available` lists them.',
  PayloadTooLarge: 'The body is larger than the limit, or the query string or form has too many fields.',
  UnsupportedMediaType: 'The body is not in a media type the route reads.',
  UnprocessableContent: 'The payload was read but is not valid; `violations` lists each reason.',
  TooManyRequests: 'Rate limit reached; `Retry-After` says when to try again.',
};

function problemContent(schema: string): ResponseObject['content'] {
  return {
    'application/problem+json': { schema: { $ref: `#/components/schemas/${schema}` } },
    'text/html': { schema: { type: 'string' } },
    'text/plain': { schema: { type: 'string' } },
  };
}

function headerRef(name: SharedHeaderName): Reference {
  return { $ref: `#/components/headers/${name}` };
}

function errorResponse(name: ErrorResponseName): ResponseObject {
  const description = DESCRIPTIONS[name];
  switch (name) {
    case 'Unauthorized':
      return {
        description,
        headers: { 'WWW-Authenticate': headerRef('WWW-Authenticate') },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/AuthenticationFailure' } } },
      };
    case 'MethodNotAllowed':
      return { description, headers: { Allow: headerRef('Allow') }, content: problemContent('Problem') };
    case 'TooManyRequests':
      return { description, headers: { 'Retry-After': headerRef('Retry-After') }, content: problemContent('Problem') };
    case 'UnprocessableContent':
      return { description, content: problemContent('ValidationProblem') };
    case 'NotAcceptable':
      return { description, content: problemContent('NotAcceptableProblem') };
    default:
      return { description, content: problemContent('Problem') };
  }
}

/** The 304 of a route with `_cache`: no body, the validators and caching headers again. */
const NOT_MODIFIED: ResponseObject = {
  description: 'Not modified: the copy the client holds (`If-None-Match` / `If-Modified-Since`) is current.',
  headers: { 'Cache-Control': headerRef('Cache-Control'), ETag: headerRef('ETag'), 'Last-Modified': headerRef('Last-Modified') },
};

/** The shared components: error schemas, error responses and their headers. */
export function errorComponents(): Pick<OpenApiComponents, 'responses' | 'headers'> & { schemas: Record<string, JsonSchema> } {
  const responses: Record<string, ResponseObject> = { NotModified: NOT_MODIFIED };
  for (const name of Object.keys(ERROR_RESPONSES) as ErrorResponseName[]) responses[name] = errorResponse(name);
  return {
    schemas: {
      AuthenticationFailure: AUTHENTICATION_FAILURE,
      NotAcceptableProblem: NOT_ACCEPTABLE_PROBLEM,
      Problem: PROBLEM,
      ValidationProblem: VALIDATION_PROBLEM,
      Violation: VIOLATION,
    },
    responses,
    headers: HEADERS,
  };
}

/** What a route does that decides which errors it can answer. */
export interface ErrorFacts {
  /** A payload is read from the body (JSON or form). */
  readonly readsBody: boolean;
  /** A payload is read from the query string. */
  readonly readsQuery: boolean;
  /** A path parameter, header or cookie has a schema (a refused value is a 400). */
  readonly validatesParameters: boolean;
  /** The route declares the formats it answers in (the view layer's `_formats`): an `Accept` refusing them all is a 406. */
  readonly negotiatesFormat: boolean;
  /** What the contributors said the route may answer besides (`Forbidden`, `TooManyRequests`…). */
  readonly contributed: readonly SharedResponseName[];
}

/** The error responses of one operation, by status. */
export function errorResponsesFor(facts: ErrorFacts): Record<string, Reference> {
  const names: SharedResponseName[] = ['NotFound', 'MethodNotAllowed'];
  // A query string or a body with too many fields is a 413 as well as a body too large.
  if (facts.readsBody || facts.readsQuery) names.push('BadRequest', 'PayloadTooLarge', 'UnprocessableContent');
  if (facts.readsBody) names.push('UnsupportedMediaType');
  if (facts.validatesParameters && !names.includes('BadRequest')) names.push('BadRequest');
  if (facts.negotiatesFormat) names.push('NotAcceptable');
  for (const name of facts.contributed) if (!names.includes(name)) names.push(name);
  const out: Record<string, Reference> = {};
  for (const name of names)
    out[name === 'NotModified' ? '304' : String(ERROR_RESPONSES[name])] = { $ref: `#/components/responses/${name}` };
  return out;
}

/** References to shared headers, by name. */
export function sharedHeaders(names: readonly SharedHeaderName[]): Record<string, Reference> {
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}
