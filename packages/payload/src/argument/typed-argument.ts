import type { ArgumentDeclaration } from '@switchboard/http-kernel';

declare const ARGUMENT_TYPE: unique symbol;

/**
 * An argument declaration that also says, to the compiler only, the type of the value the
 * controller receives for it. `mapPayload` returns one whose type is the schema's output.
 */
export interface TypedArgument<T> extends ArgumentDeclaration {
  readonly [ARGUMENT_TYPE]: (value: T) => T;
}

/** Creates a typed declaration for an argument some resolver supplies (an attribute, a service…). */
export function typedArgument<T>(name: string, options?: Readonly<Record<string, unknown>>): TypedArgument<T> {
  return (options === undefined ? { name } : { name, options }) as TypedArgument<T>;
}
