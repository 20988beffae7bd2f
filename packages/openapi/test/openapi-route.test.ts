import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument, openApiRoute, type OpenApiDocument } from '../src/index.js';
import { sampleOptions, sampleRoutes } from './support/sample-app.js';
import { declarationOwner } from '../../../test/kit/index.js';
import { serveRoutes, type ServedApp } from './support/served-app.js';

let app: ServedApp;
const routes = sampleRoutes();
beforeAll(async () => {
  routes.add(openApiRoute({ routes, path: '/api/openapi.json', maxAgeSeconds: 60, ...sampleOptions }));
  // The sample routes are served only to be documented: their declarations are not under test.
  const documentedOnly = declarationOwner({ routeDefaults: ['_is_granted', '_responses', '_rate_limit', '_same_origin'] });
  app = await serveRoutes(routes, [documentedOnly]);
});
afterAll(() => app.close());

describe('openApiRoute', () => {
  it('serves the document of every route, itself included, as public cacheable JSON', async () => {
    const response = await fetch(`${app.origin}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const served = (await response.json()) as OpenApiDocument;
    expect(served).toEqual(JSON.parse(JSON.stringify(createOpenApiDocument(routes, sampleOptions))));
    expect(served.paths['/api/openapi.json']?.get).toMatchObject({ operationId: 'openapi', security: [{}, { bearerAuth: [] }] });
  });

  it('answers a revalidation with its ETag with 304 and no body', async () => {
    const first = await fetch(`${app.origin}/api/openapi.json`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await fetch(`${app.origin}/api/openapi.json`, { headers: { 'if-none-match': etag! } });
    expect([again.status, await again.text(), again.headers.get('etag')]).toEqual([304, '', etag]);
  });
});
