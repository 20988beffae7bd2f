import type { StandardSchemaV1 } from '@standard-schema/spec';
import { UnprocessableEntityHttpError } from '@switchboard/http-kernel';
import { violationOf, type Violation } from './violation.js';

/** How many violations of one message are shown in the error message (all are in `violations`, up to the cap). */
const VIOLATIONS_IN_MESSAGE = 5;

/**
 * Runs a Standard Schema on a decoded payload: its output on success, a 422 listing every
 * violation otherwise. The list is capped so that a hostile payload cannot make a huge error.
 */
export async function validatePayload<S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
  argumentName: string,
  maxViolations: number,
): Promise<StandardSchemaV1.InferOutput<S>> {
  // Already asynchronous (the body was read): a synchronous schema's answer is awaited like any other.
  const result = await schema['~standard'].validate(value);
  if (!result.issues) return (result as StandardSchemaV1.SuccessResult<StandardSchemaV1.InferOutput<S>>).value;
  const violations = result.issues.slice(0, maxViolations).map(violationOf);
  throw new UnprocessableEntityHttpError(messageOf(argumentName, violations, result.issues.length), {
    details: { violations },
  });
}

function messageOf(argumentName: string, violations: readonly Violation[], total: number): string {
  const listed = violations
    .slice(0, VIOLATIONS_IN_MESSAGE)
    .map((violation) => `${violation.path === '' ? '(payload)' : violation.path}: ${violation.message}`)
    .join('; ');
  const more = total > VIOLATIONS_IN_MESSAGE ? ` (and ${total - VIOLATIONS_IN_MESSAGE} more)` : '';
  const text = `The "${argumentName}" payload is invalid: ${listed}${more}`;
  // Validator messages often end a sentence themselves; one period is enough.
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
