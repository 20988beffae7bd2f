import { BadRequestHttpError } from '@switchboard/http-kernel';
import type { ValueOptions } from '../argument/payload-options.js';
import { violationOf, type Violation } from './violation.js';

/**
 * Runs each named value's schema: an object of their outputs, or a 400 listing every refused value
 * with a JSON Pointer to it (`/headers/x-tenant`, `/cookies/session`). A 400, not a 422: the
 * request's envelope is wrong, not a document it carried.
 */
export async function validateValues(
  options: ValueOptions,
  values: Readonly<Record<string, string | undefined>>,
  argumentName: string,
  maxViolations: number,
): Promise<Record<string, unknown>> {
  const output: Record<string, unknown> = {};
  const violations: Violation[] = [];
  for (const [name, schema] of Object.entries(options.schema)) {
    let result = schema['~standard'].validate(values[name]);
    if (result instanceof Promise) result = await result;
    if (!result.issues) {
      output[name] = result.value;
      continue;
    }
    const at = `/${options.from}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    for (const issue of result.issues) {
      const { path, message } = violationOf(issue);
      violations.push({ path: `${at}${path}`, message });
    }
  }
  if (violations.length === 0) return output;
  const listed = violations
    .slice(0, maxViolations)
    .map((violation) => `${violation.path}: ${violation.message}`)
    .join('; ');
  throw new BadRequestHttpError(`The ${options.from} of the "${argumentName}" argument are invalid: ${listed}`, {
    details: { violations: violations.slice(0, maxViolations) },
  });
}
