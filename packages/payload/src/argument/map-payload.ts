import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ArgumentDeclaration } from '@switchboard/http-kernel';
import { assertPayloadOptions, PAYLOAD_OPTION, type PayloadOptions } from './payload-options.js';
import type { TypedArgument } from './typed-argument.js';

/** A payload argument declaration; its type parameter is what the controller receives. */
export type PayloadArgument<S extends StandardSchemaV1> = TypedArgument<StandardSchemaV1.InferOutput<S>> & {
  readonly options: { readonly payload: PayloadOptions<S> };
};

/**
 * Declares that the controller argument `name` is read from the JSON body, the query string or a
 * form body, and validated by `schema`. Use it in `defineController`'s argument list; with
 * `defineTypedController` the controller's parameter type is the schema's output type.
 *
 * @example mapPayload('item', { from: 'json', schema: z.object({ name: z.string() }) })
 */
export function mapPayload<S extends StandardSchemaV1>(name: string, options: PayloadOptions<S>): PayloadArgument<S> {
  assertPayloadOptions(options, name);
  const declaration: ArgumentDeclaration = { name, options: { [PAYLOAD_OPTION]: options } };
  // The argument's type exists only for the compiler: nothing is stored under it at run time.
  return declaration as PayloadArgument<S>;
}

/** The type a payload argument mapped with `schema` receives. */
export type Payload<S extends StandardSchemaV1> = StandardSchemaV1.InferOutput<S>;
