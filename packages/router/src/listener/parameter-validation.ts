import type { StandardSchemaV1 } from '@standard-schema/spec';
import { BadRequestHttpError } from '@switchboard/http-kernel';
import { hasMembers } from '@switchboard/http-kernel/internal';
import type { Route } from '../route/route.js';

/** One refused value, as the 400's `violations` list it: a JSON Pointer (`/params/id`) and the schema's message. */
export interface ParameterViolation {
  readonly path: string;
  readonly message: string;
}

/**
 * Runs the route's parameter schemas over the matched values (captured, or the default): the
 * values with each replaced by its schema's output (a copy: matched values are frozen), or the
 * 400 to answer when a schema refuses one, listing every refusal. An absent optional parameter is
 * not validated.
 */
export function applyParameterSchemas(
  route: Route,
  matched: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> | BadRequestHttpError {
  if (!hasMembers(route.params)) return matched;
  const params = { ...matched };
  const violations: ParameterViolation[] = [];
  for (const [name, schema] of Object.entries(route.params)) {
    const value = params[name];
    if (value === undefined) continue;
    const result = schema['~standard'].validate(value);
    if (result instanceof Promise) {
      throw new TypeError(`Route "${route.name}": the schema of parameter "${name}" validates asynchronously; parameter schemas must not.`);
    }
    if (result.issues === undefined) params[name] = result.value;
    else
      for (const issue of result.issues)
        violations.push({ path: `/params/${escapeKey(name)}${pointer(issue.path)}`, message: issue.message });
  }
  if (violations.length === 0) return params;
  const listed = violations.map((violation) => `${violation.path}: ${violation.message}`).join('; ');
  return new BadRequestHttpError(`The parameters of route "${route.name}" are invalid: ${listed}`, { details: { violations } });
}

function pointer(path: StandardSchemaV1.Issue['path']): string {
  let out = '';
  for (const segment of path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    out += `/${escapeKey(typeof key === 'symbol' ? (key.description ?? '') : String(key))}`;
  }
  return out;
}

function escapeKey(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
