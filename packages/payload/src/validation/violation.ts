import type { StandardSchemaV1 } from '@standard-schema/spec';

/**
 * One reason a payload was refused, as listed in the 422 problem document's `violations`
 * member. A stable shape whatever the validator: `path` is a JSON Pointer (RFC 6901) into the
 * payload (`/items/0/name`; `""` for the payload as a whole) and `message` is the validator's.
 */
export interface Violation {
  readonly path: string;
  readonly message: string;
}

export function violationOf(issue: StandardSchemaV1.Issue): Violation {
  return { path: jsonPointer(issue.path ?? []), message: issue.message };
}

function jsonPointer(path: ReadonlyArray<PropertyKey | StandardSchemaV1.PathSegment>): string {
  let pointer = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    const text = typeof key === 'symbol' ? (key.description ?? '') : String(key);
    pointer += `/${text.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  return pointer;
}
