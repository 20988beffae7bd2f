import type { Request } from '../http/request.js';
import { andThen, type MaybePromise } from '../internal/maybe-promise.js';
import { argumentMetadataOf, controllerName, type ArgumentMetadata, type Controller } from './controller.js';
import { DefaultValueResolver } from './value-resolver/default-value-resolver.js';
import { RequestAttributeValueResolver } from './value-resolver/request-attribute-value-resolver.js';
import { RequestValueResolver } from './value-resolver/request-value-resolver.js';
import type { ValueResolver } from './value-resolver/value-resolver.js';

export function defaultValueResolvers(): ValueResolver[] {
  return [new RequestValueResolver(), new RequestAttributeValueResolver(), new DefaultValueResolver()];
}

/** Asks each resolver in turn for each argument of the controller; the first answer wins. */
export class ArgumentResolver {
  readonly #resolvers: readonly ValueResolver[];

  /** `resolvers` run before the defaults (request, attribute, default value). */
  constructor(resolvers: readonly ValueResolver[] = [], withDefaults = true) {
    this.#resolvers = withDefaults ? [...resolvers, ...defaultValueResolvers()] : [...resolvers];
  }

  /** Whether one of the resolvers gives `argument` a value on a route whose requests carry `attributes` (see `ValueResolver.canResolve`). */
  canResolve(argument: ArgumentMetadata, attributes: ReadonlySet<string>): boolean {
    return this.#resolvers.some((resolver) => resolver.canResolve(argument, attributes));
  }

  getArguments(request: Request, controller: Controller): MaybePromise<unknown[]> {
    return this.#resolveFrom(request, controller, argumentMetadataOf(controller), 0, []);
  }

  /** Resolves the arguments from `index` on into `values`, in order. */
  #resolveFrom(
    request: Request,
    controller: Controller,
    metadata: readonly ArgumentMetadata[],
    index: number,
    values: unknown[],
  ): MaybePromise<unknown[]> {
    for (let i = index; i < metadata.length; i++) {
      const resolved = this.#resolveOne(request, controller, metadata[i]!, 0);
      if (resolved instanceof Promise) return this.#resumeFrom(resolved, request, controller, metadata, i + 1, values);
      for (const value of resolved) values.push(value);
    }
    return values;
  }

  // The continuations of both loops are written outside them (docs/decisions.md D3).

  #resumeFrom(
    pending: Promise<readonly unknown[]>,
    request: Request,
    controller: Controller,
    metadata: readonly ArgumentMetadata[],
    next: number,
    values: unknown[],
  ): Promise<unknown[]> {
    return andThen(pending, (found) => {
      values.push(...found);
      return this.#resolveFrom(request, controller, metadata, next, values);
    }) as Promise<unknown[]>;
  }

  /** The first answer for `argument` from the resolvers, starting at `from`. */
  #resolveOne(request: Request, controller: Controller, argument: ArgumentMetadata, from: number): MaybePromise<readonly unknown[]> {
    for (let r = from; r < this.#resolvers.length; r++) {
      const resolved = this.#resolvers[r]!.resolve(request, argument);
      if (resolved === null) continue;
      // Resolvers answer with an array, or a promise of one: only the latter waits.
      if (Array.isArray(resolved)) return resolved;
      return this.#resumeOne(Promise.resolve(resolved), request, controller, argument, r + 1);
    }
    throw unresolved(controller, argument.name);
  }

  #resumeOne(
    pending: Promise<readonly unknown[] | null>,
    request: Request,
    controller: Controller,
    argument: ArgumentMetadata,
    next: number,
  ): Promise<readonly unknown[]> {
    return andThen(pending, (values) => values ?? this.#resolveOne(request, controller, argument, next)) as Promise<readonly unknown[]>;
  }
}

function unresolved(controller: Controller, name: string): Error {
  return new Error(
    `Controller "${controllerName(controller)}" requires a value for the "${name}" argument: ` +
      'no route parameter, request attribute, resolver or default value provides one.',
  );
}
