import createClient from 'openapi-fetch';
import type { components, paths } from './api-types.js';

type Item = components['schemas']['Item'];

/**
 * A client of the example API typed only by the types openapi-typescript generated from its
 * OpenAPI document: it never imports server code. The suite's `tsc --noEmit` type-checks it, and
 * the OpenAPI test runs it against a live host.
 */
export async function listCreateDelete(baseUrl: string, tokens: { user: string; admin: string }) {
  const api = createClient<paths>({ baseUrl, headers: { accept: 'application/json' } });
  const asUser = { authorization: `Bearer ${tokens.user}` };

  const created = await api.POST('/api/items', { body: { name: 'typed lamp', quantity: 3 }, headers: asUser });
  if (created.data === undefined) throw new Error(`create failed: ${created.response.status}`);
  const item: Item = created.data;

  // The list is JSON (an array) or NDJSON (one item a line, a document of its own) by `Accept`.
  const listed = await api.GET('/api/items');
  const names: string[] = (Array.isArray(listed.data) ? listed.data : []).map((entry) => entry.name);

  const refused = await api.POST('/api/items', { body: { name: '', quantity: -1 }, headers: asUser });
  // Errors are problem+json for a JSON client, or HTML/text for others: the union says so.
  const problem = refused.error;
  const violations = typeof problem === 'object' && 'violations' in problem ? problem.violations.map((violation) => violation.path) : [];

  const deleted = await api.DELETE('/api/items/{id}', {
    params: { path: { id: item.id } },
    headers: { authorization: `Bearer ${tokens.admin}` },
  });
  return { item, names, violations, deletedStatus: deleted.response.status };
}

/** What the generated types refuse: the compiler, not a test, is the check here. */
export function typeErrors(api: ReturnType<typeof createClient<paths>>): void {
  // @ts-expect-error `quantity` is required by the NewItem schema.
  void api.POST('/api/items', { body: { name: 'no quantity' } });
  // @ts-expect-error `/api/items/{id}` has no PUT.
  void api.PUT('/api/items/{id}', { params: { path: { id: 1 } } });
  // @ts-expect-error the path parameter is required.
  void api.GET('/api/items/{id}', {});
}
