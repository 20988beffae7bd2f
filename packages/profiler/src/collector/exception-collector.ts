import { flattenError, type FlattenedError } from '@switchboard/error-controller';
import { describeValue } from '../profile/describe-value.js';
import type { CollectContext, DataCollector } from './data-collector.js';

export interface ExceptionData {
  /** The error, its frames and its `cause` chain, flattened by the error-controller package. */
  readonly error: FlattenedError;
}

/**
 * The uncaught error of the request: the one its kernel.exception carried or, for an error
 * sub-request, the one it renders (attribute `exception`) — so both profiles show it. Source lines
 * are not read here; the exception panel reads them when someone opens it.
 */
export class ExceptionCollector implements DataCollector<ExceptionData> {
  readonly name = 'exception';

  collect({ recording }: CollectContext): ExceptionData | undefined {
    const thrown = recording.exception !== undefined ? recording.exception : recording.request.attributes.get('exception');
    if (thrown === undefined) return undefined;
    return { error: plainDetails(flattenError(thrown)) };
  }
}

/** `details` may hold anything an error was given; keep it plain and bounded. */
function plainDetails(error: FlattenedError): FlattenedError {
  return {
    ...error,
    details: describeValue(error.details) as Record<string, unknown>,
    cause: error.cause === null ? null : plainDetails(error.cause),
  };
}
