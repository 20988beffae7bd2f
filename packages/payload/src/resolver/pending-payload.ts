import { type ArgumentMetadata, PendingArgument } from '@switchboard/http-kernel';
import type { PayloadMapping } from '../argument/payload-options.js';

/**
 * Stands in for a payload argument between argument resolution and `kernel.controller_arguments`
 * listener of `RequestPayloadValueResolver`, where it is replaced by the validated value: the body is read only after the
 * authorization checks and the cache attribute had their say.
 */
export class PendingPayload extends PendingArgument {
  override readonly missingRegistration = 'RequestPayloadValueResolver from @switchboard/payload with dispatcher.addSubscriber';

  constructor(
    readonly argument: ArgumentMetadata,
    readonly options: PayloadMapping,
  ) {
    super();
  }

  override get argumentName(): string {
    return this.argument.name;
  }

  override toString(): string {
    return `[payload "${this.argument.name}" from ${this.options.from}, not mapped yet]`;
  }
}
