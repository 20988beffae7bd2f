import { JsonResponse, Response, type Request } from '@switchboard/http-kernel';
import { defineRateLimit, MemoryStore } from '@switchboard/rate-limit';
import { RouteCollection } from '@switchboard/router';
import { type Authenticator, FirewallMap } from '@switchboard/security';
import { createTestClient } from '@switchboard/testing';
import { describe, expect, it } from 'vitest';
import { createJsonApi } from '../src/index.js';

/** An app's own authenticator: `x-role: ROLE_X` authenticates a user with that role. */
const headerRole: Authenticator = {
  name: 'header-role',
  authenticate: async (request: Request) => {
    const role = request.headers.get('x-role');
    return role === undefined ? { kind: 'absent' } : { kind: 'authenticated', user: { identifier: 'ada', roles: [role] } };
  },
  start: () => new Response('', 401, { 'www-authenticate': 'Role' }),
};

const routes = new RouteCollection()
  .add('notes_delete', '/api/notes/:id', {
    methods: 'DELETE',
    defaults: { _is_granted: 'ROLE_ADMIN' },
    controller: () => new JsonResponse(null, 204),
  })
  .add('notes_list', '/api/notes', {
    methods: 'GET',
    defaults: { _rate_limit: defineRateLimit({ policy: 'fixed_window', limit: 2, intervalMs: 60_000 }) },
    controller: () => new JsonResponse([]),
  });

describe('createJsonApi', () => {
  it('with firewalls, cors and rateLimit, enforces _is_granted and _rate_limit and answers CORS', async () => {
    const { kernel } = createJsonApi({
      routes,
      firewalls: new FirewallMap([{ name: 'api', pattern: /^\/api/, authenticators: [headerRole] }]),
      cors: { allowOrigins: ['https://notes.example'] },
      rateLimit: { store: new MemoryStore() },
    });
    const client = createTestClient(kernel);
    expect((await client.delete('/api/notes/1', { headers: { 'x-role': 'ROLE_USER' } })).status).toBe(403);
    expect((await client.delete('/api/notes/1', { headers: { 'x-role': 'ROLE_ADMIN' } })).status).toBe(204);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await client.get('/api/notes', { headers: { 'x-role': 'ROLE_USER' } })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const preflight = await client.request('OPTIONS', '/api/notes', {
      headers: { origin: 'https://notes.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://notes.example');
  });

  it('without firewalls or rateLimit, refuses routes that declare _is_granted or _rate_limit', () => {
    expect(() => createTestClient(createJsonApi({ routes }).kernel)).toThrow(/IsGrantedListener[\s\S]*RouteRateLimitListener/);
  });
});
