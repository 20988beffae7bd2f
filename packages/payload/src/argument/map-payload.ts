import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ArgumentDeclaration } from '@switchboard/http-kernel';
import { assertPayloadOptions, PAYLOAD_OPTION, type PayloadOptions, type ValueOptions, type ValueSchemas } from './payload-options.js';
import type { TypedArgument } from './typed-argument.js';

/** A payload argument declaration; its type parameter is what the controller receives. */
export type PayloadArgument<S extends StandardSchemaV1> = TypedArgument<StandardSchemaV1.InferOutput<S>> & {
  readonly options: { readonly payload: PayloadOptions<S> };
};

/** What a headers or cookies argument receives: each named value as its schema's output. */
export type Values<S extends ValueSchemas> = { readonly [K in keyof S]: StandardSchemaV1.InferOutput<S[K]> };

/** A headers or cookies argument declaration; its type parameter is what the controller receives. */
export type ValuesArgument<S extends ValueSchemas> = TypedArgument<Values<S>> & {
  readonly options: { readonly payload: ValueOptions<S> };
};

/**
 * Declares that the controller argument `name` is read from the JSON body, the query string, a
 * form or multipart body (validated by `schema`), or from request headers or cookies (an object
 * of one schema per name; the argument is an object of their outputs). Use it in
 * `defineController`'s argument list; with `defineTypedController` the controller's parameter
 * type is the schema's output type.
 *
 * @example mapPayload('item', { from: 'json', schema: z.object({ name: z.string() }) })
 * @example mapPayload('caller', { from: 'headers', schema: { 'x-tenant': z.string().min(1) } })
 */
export function mapPayload<const S extends ValueSchemas>(name: string, options: ValueOptions<S>): ValuesArgument<S>;
export function mapPayload<S extends StandardSchemaV1>(name: string, options: PayloadOptions<S>): PayloadArgument<S>;
export function mapPayload(name: string, options: PayloadOptions | ValueOptions): ArgumentDeclaration {
  assertPayloadOptions(options, name);
  // The argument's type (the overloads') exists only for the compiler: nothing is stored under it at run time.
  return { name, options: { [PAYLOAD_OPTION]: options } };
}

/** The type a payload argument mapped with `schema` receives. */
export type Payload<S extends StandardSchemaV1> = StandardSchemaV1.InferOutput<S>;
