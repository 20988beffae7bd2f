/**
 * @switchboard/payload — controller arguments mapped from the JSON body, the query string, a
 * form body, a multipart upload, request headers or cookies, and validated by any Standard Schema v1 library (zod, valibot, arktype…), typed from
 * the schema. Failures go through the normal error flow: 400, 413, 415, or 422 with `violations`.
 * @module
 */
export { mapPayload, type Payload, type PayloadArgument, type Values, type ValuesArgument } from './argument/map-payload.js';
export {
  PAYLOAD_OPTION,
  type PayloadMapping,
  type PayloadOptions,
  type PayloadSource,
  type ValueOptions,
  type ValueSchemas,
  type ValueSource,
} from './argument/payload-options.js';
export { typedArgument, type TypedArgument } from './argument/typed-argument.js';
export { defineTypedController, type ArgumentTypes } from './argument/define-typed-controller.js';
export { PendingPayload } from './resolver/pending-payload.js';
export { DEFAULT_MAX_FIELDS, RequestPayloadValueResolver, type RequestPayloadOptions } from './resolver/request-payload-value-resolver.js';
export type { Violation } from './validation/violation.js';
export type { MultipartOptions } from './multipart/multipart-uploads.js';
export { removeAbandonedUploads } from './multipart/abandoned-uploads.js';
