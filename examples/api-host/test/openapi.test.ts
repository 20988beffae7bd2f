/**
 * The host's OpenAPI document: served at GET /api/openapi.json in both modes, valid OpenAPI 3.1
 * (checked by @seriousme/openapi-schema-validator, not our code), the same as the committed
 * openapi.json, covering every public route; every answer of a replay of the API's calls fits
 * it (status, required headers, media type, JSON body against its schema with ajv); and a client
 * typed by openapi-typescript from it lists, creates and deletes items.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { OpenApiDocument, ResponseObject } from '@switchboard/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FILE, generateClientTypes, TYPES_FILE } from './client/generate-types.js';
import { listCreateDelete } from './client/items-client.js';
import { OpenApiContract } from './support/openapi-contract.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

const committed = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as OpenApiDocument;

describe('the committed document and client types', () => {
  it('the generated client types are those openapi-typescript makes of openapi.json today (regenerate: pnpm openapi)', async () => {
    expect(await generateClientTypes()).toBe(readFileSync(TYPES_FILE, 'utf8'));
  });

  it('the contract check refuses what the document does not allow', () => {
    const contract = new OpenApiContract(committed);
    const json = new Headers({ 'content-type': 'application/json' });
    const item = { id: 1, name: 'lamp', quantity: 1, createdAt: '2026-11-27T10:00:00.000Z' };
    const cacheable = new Headers({ 'content-type': 'application/json', 'cache-control': 'public' });
    expect(contract.check('GET', '/api/items/1', { status: 200, headers: cacheable, body: JSON.stringify(item) })).toEqual([]);
    expect(
      contract.check('GET', '/api/items/1', { status: 200, headers: cacheable, body: JSON.stringify({ ...item, secret: 1 }) }),
    ).toEqual([expect.stringContaining('must NOT have additional properties')]);
    expect(
      contract.check('GET', '/api/items/1', { status: 200, headers: cacheable, body: JSON.stringify({ ...item, createdAt: 'today' }) }),
    ).toEqual([expect.stringContaining('must match format "date-time"')]);
    expect(contract.check('POST', '/api/items', { status: 201, headers: json, body: JSON.stringify(item) })).toEqual([
      'POST /api/items → 201: header Location missing',
    ]);
    expect(contract.check('GET', '/api/items', { status: 418, headers: json, body: '[]' })).toEqual([
      'GET /api/items → 418: status not documented for items_list',
    ]);
    expect(contract.check('GET', '/api/items/1', { status: 404, headers: json, body: '{}' })).toEqual([
      'GET /api/items/1 → 404: media type "application/json" not documented (application/problem+json, text/html, text/plain)',
    ]);
  });
});

describe.each([
  ['debug', '1'],
  ['production', '0'],
])('the OpenAPI document, %s mode', (mode, APP_DEBUG) => {
  let host: StartedHost;
  let base: string;
  const tokens = { user: '', admin: '' };
  let contract: OpenApiContract;
  const problems: string[] = [];

  /** One call, checked against the document; returns the answer for the test's own expectations. */
  async function call(method: string, path: string, init: { token?: string; body?: string; headers?: Record<string, string> } = {}) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    const answer = { status: response.status, headers: response.headers, body: await response.text() };
    problems.push(...contract.check(method, path, answer));
    return answer;
  }

  const login = async (username: string) => {
    const answer = await call('POST', '/api/token', { body: JSON.stringify({ username, password: `${username}-password` }) });
    expect(answer.status, answer.body).toBe(200);
    return (JSON.parse(answer.body) as { token: string }).token;
  };

  beforeAll(async () => {
    host = await startHostInProcess({ APP_DEBUG });
    base = host.running.url;
    contract = new OpenApiContract(committed);
    tokens.user = await login('demo');
    tokens.admin = await login('admin');
  }, 120_000);
  afterAll(() => host?.stop());

  it('is served publicly at GET /api/openapi.json, cacheable, revalidated with 304', async () => {
    const response = await fetch(`${base}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = response.headers.get('etag');
    expect(await response.json()).toEqual(committed);
    const again = await fetch(`${base}/api/openapi.json`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('is valid OpenAPI 3.1 and is the committed openapi.json (pnpm openapi writes it)', async () => {
    const validator = new Validator();
    expect(await validator.validate(host.app.openApiDocument() as unknown as Record<string, unknown>)).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
    expect(JSON.parse(JSON.stringify(host.app.openApiDocument()))).toEqual(committed);
  });

  it('covers every public route with its methods, parameters, bodies, security and error answers', () => {
    const summary = Object.entries(committed.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        op: `${method.toUpperCase()} ${path}`,
        security: op.security === undefined ? 'none' : op.security.length === 2 ? 'optional' : 'bearer',
        body: Object.keys(op.requestBody?.content ?? {}).join(),
        parameters: (op.parameters ?? []).map((p) => `${p.in}:${p.name}${(p.schema['pattern'] as string | undefined) ?? ''}`).join(),
        statuses: Object.keys(op.responses).join(),
      })),
    );
    expect(summary).toEqual([
      { op: 'GET /api/admin', security: 'bearer', body: '', parameters: '', statuses: '200,401,403,404,405' },
      { op: 'GET /api/items', security: 'optional', body: '', parameters: '', statuses: '200,304,401,404,405,406' },
      {
        op: 'POST /api/items',
        security: 'bearer',
        body: 'application/json',
        parameters: '',
        statuses: '201,400,401,403,404,405,413,415,422,429',
      },
      { op: 'GET /api/items/events', security: 'bearer', body: '', parameters: '', statuses: '200,401,404,405,429,503' },
      { op: 'GET /api/items/export', security: 'bearer', body: '', parameters: '', statuses: '200,304,401,404,405,429' },
      {
        op: 'POST /api/items/import',
        security: 'bearer',
        body: 'multipart/form-data',
        parameters: '',
        statuses: '201,400,401,403,404,405,413,415,422,429',
      },
      {
        op: 'GET /api/items/{id}',
        security: 'optional',
        body: '',
        parameters: 'path:id',
        statuses: '200,304,400,401,404,405',
      },
      {
        op: 'DELETE /api/items/{id}',
        security: 'bearer',
        body: '',
        parameters: 'path:id',
        statuses: '204,400,401,403,404,405',
      },
      { op: 'GET /api/me', security: 'bearer', body: '', parameters: '', statuses: '200,401,404,405' },
      { op: 'GET /api/openapi.json', security: 'optional', body: '', parameters: '', statuses: '200,304,401,404,405' },
      {
        op: 'POST /api/token',
        security: 'optional',
        body: 'application/json',
        parameters: '',
        statuses: '200,400,401,403,404,405,413,415,422,429,503',
      },
      { op: 'GET /health', security: 'none', body: '', parameters: '', statuses: '200,404,405' },
      { op: 'GET /ready', security: 'none', body: '', parameters: '', statuses: '200,404,405,503' },
    ]);
    expect(committed.paths['/api/items']?.post?.requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/NewItem',
    });
    expect(committed.components.schemas['NewItem']).toMatchObject({ required: ['name', 'quantity'] });
    // The list's formats (`_formats`) are its media types; an Accept that refuses them all is a 406.
    const listed = committed.paths['/api/items']?.get?.responses['200'] as ResponseObject | undefined;
    expect(Object.keys(listed?.content ?? {})).toEqual(['application/json', 'application/x-ndjson']);
    expect(committed.paths['/api/items']?.get?.responses['406']).toEqual({ $ref: '#/components/responses/NotAcceptable' });
    // The item id's route schema (a positive integer) describes the parameter.
    expect(committed.paths['/api/items/{id}']?.get?.parameters?.[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    });
  });

  it('every answer of the API’s calls fits the document: items, token, me, admin, errors', async () => {
    const created = await call('POST', '/api/items', {
      token: tokens.user,
      body: JSON.stringify({ name: ' lamp ', quantity: 2, extra: 1 }),
    });
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.body) as { id: number }).id;
    const shown = await call('GET', `/api/items/${id}`);
    expect(shown.status).toBe(200);
    const statuses = [
      (await call('GET', '/api/items')).status,
      (await call('GET', '/api/items', { headers: { accept: 'application/x-ndjson' } })).status,
      (await call('GET', '/api/items', { headers: { accept: 'application/xml' } })).status,
      (await call('GET', `/api/items/${id}`, { headers: { 'if-none-match': shown.headers.get('etag')! } })).status,
      (await call('GET', '/api/items/999999')).status,
      (await call('POST', '/api/items', { token: tokens.user, body: JSON.stringify({ name: '', quantity: 1.5 }) })).status,
      (await call('POST', '/api/items', { token: tokens.user, body: '{"name": ' })).status,
      (await call('POST', '/api/items', { token: tokens.user, body: 'name=lamp', headers: { 'content-type': 'text/plain' } })).status,
      (await call('POST', '/api/items', { body: JSON.stringify({ name: 'x', quantity: 1 }) })).status,
      (await call('POST', '/api/items', { token: 'not.a.token', body: JSON.stringify({ name: 'x', quantity: 1 }) })).status,
      (await call('DELETE', `/api/items/${id}`, { token: tokens.user })).status,
      (await call('DELETE', `/api/items/${id}`, { token: tokens.admin })).status,
      (await call('DELETE', `/api/items/${id}`, { token: tokens.admin })).status,
      (await call('PUT', '/api/items')).status,
      (await call('POST', '/api/token', { body: JSON.stringify({ username: 'demo', password: 'wrong' }) })).status,
      (await call('GET', '/api/me', { token: tokens.user })).status,
      (await call('GET', '/api/me')).status,
      (await call('GET', '/api/admin', { token: tokens.user })).status,
      (await call('GET', '/api/admin', { token: tokens.admin })).status,
      (await call('GET', '/health')).status,
      (await call('DELETE', '/health')).status,
    ];
    expect(statuses).toEqual([200, 200, 406, 304, 404, 422, 400, 415, 401, 401, 403, 204, 404, 405, 401, 200, 401, 403, 200, 200, 405]);
    expect(problems).toEqual([]);
  });

  it('drives a client typed by openapi-typescript: list, create, delete', async () => {
    const result = await listCreateDelete(base, tokens);
    expect(result.item).toMatchObject({ name: 'typed lamp', quantity: 3 });
    expect(result.names).toContain('typed lamp');
    expect(result.violations).toEqual(['/name', '/quantity']);
    expect(result.deletedStatus).toBe(204);
  });

  it.runIf(mode === 'debug')('logs no response-schema mismatch: the declared schemas match the answers', () => {
    expect(host.logger.records.filter((record) => record.channel === 'openapi')).toEqual([]);
  });
});
