import type { Request } from '../http/request.js';
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

  getArguments(request: Request, controller: Controller): unknown[] | Promise<unknown[]> {
    const metadata = argumentMetadataOf(controller);
    const values: unknown[] = [];
    for (let i = 0; i < metadata.length; i++) {
      const resolved = this.#resolveOne(request, controller, metadata[i]!, 0);
      if (resolved instanceof Promise) return this.#finishAsync(request, controller, metadata, i, resolved, values);
      values.push(...resolved);
    }
    return values;
  }

  #resolveOne(
    request: Request,
    controller: Controller,
    argument: ArgumentMetadata,
    from: number,
  ): readonly unknown[] | Promise<readonly unknown[]> {
    for (let r = from; r < this.#resolvers.length; r++) {
      const resolved = this.#resolvers[r]!.resolve(request, argument);
      if (resolved instanceof Promise) {
        return resolved.then((values) => values ?? this.#resolveOne(request, controller, argument, r + 1));
      }
      if (resolved !== null) return resolved;
    }
    throw unresolved(controller, argument.name);
  }

  async #finishAsync(
    request: Request,
    controller: Controller,
    metadata: readonly ArgumentMetadata[],
    index: number,
    pending: Promise<readonly unknown[]>,
    values: unknown[],
  ): Promise<unknown[]> {
    values.push(...(await pending));
    for (let i = index + 1; i < metadata.length; i++) {
      values.push(...(await this.#resolveOne(request, controller, metadata[i]!, 0)));
    }
    return values;
  }
}

function unresolved(controller: Controller, name: string): Error {
  return new Error(
    `Controller "${controllerName(controller)}" requires a value for the "${name}" argument: ` +
      'no route parameter, request attribute, resolver or default value provides one.',
  );
}
