import { JsonResponse } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTypedController, mapPayload } from '../src/index.js';
import { startHostServer, type TestServer } from '../../../test/kit/host-kernel.js';
import { payloadWiring } from './support/payload-wiring.js';

/** `true` only when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const caller = mapPayload('caller', {
  from: 'headers',
  schema: { 'x-tenant': z.string().regex(/^[a-z]+$/), 'x-page-size': z.coerce.number().int().max(100).optional() },
});
const session = mapPayload('session', {
  from: 'cookies',
  schema: { sid: z.string().min(8), theme: z.enum(['dark', 'light']).default('light') },
});

const show = defineTypedController([caller, session], (caller, session) => {
  const typed: [
    Same<typeof caller, { readonly 'x-tenant': string; readonly 'x-page-size': number | undefined }>,
    Same<typeof session, { readonly sid: string; readonly theme: 'dark' | 'light' }>,
  ] = [true, true];
  return new JsonResponse({ caller, session, typed });
});

let host: TestServer;

beforeAll(async () => {
  host = await startHostServer({ 'GET /me': show }, payloadWiring());
});
afterAll(() => host.close());

function problemOf(body: string): { status: number; violations: Array<{ path: string; message: string }> } {
  return JSON.parse(body) as { status: number; violations: Array<{ path: string; message: string }> };
}

describe('header and cookie values', () => {
  it('gives the controller each value as its schema’s output, the header name in any case', async () => {
    const response = await host.fetch('/me', {
      headers: [
        ['X-Tenant', 'acme'],
        ['x-page-size', '20'],
        ['cookie', 'sid=abcdefgh12; theme=dark'],
      ],
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      caller: { 'x-tenant': 'acme', 'x-page-size': 20 },
      session: { sid: 'abcdefgh12', theme: 'dark' },
      typed: [true, true],
    });
  });

  it('lets the schema decide about an absent value: optional, defaulted, or refused', async () => {
    const response = await host.fetch('/me', { headers: { 'x-tenant': 'acme', cookie: 'sid=%61bcdefgh' } });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ caller: { 'x-tenant': 'acme' }, session: { sid: 'abcdefgh', theme: 'light' } });
  });

  it('answers 400 problem+json with a violation pointing at each refused header or cookie', async () => {
    const response = await host.fetch('/me', {
      headers: { accept: 'application/json', 'x-tenant': 'ACME!', 'x-page-size': 'many', cookie: 'theme=blue' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = problemOf(response.body);
    expect(problem.status).toBe(400);
    expect(problem.violations.map((violation) => violation.path)).toEqual(['/headers/x-tenant', '/headers/x-page-size']);
  });

  it('checks cookies once the headers pass, pointing at /cookies/<name>', async () => {
    const response = await host.fetch('/me', { headers: { accept: 'application/json', 'x-tenant': 'acme', cookie: 'theme=blue' } });
    expect(response.status).toBe(400);
    const { violations } = problemOf(response.body);
    expect(violations.map((violation) => violation.path)).toEqual(['/cookies/sid', '/cookies/theme']);
    expect(violations.every((violation) => violation.message.length > 0)).toBe(true);
  });

  it('refuses a mapping whose names are not header names or whose values are not schemas, where it is written', () => {
    expect(() => mapPayload('bad', { from: 'headers', schema: { 'x tenant': z.string() } })).toThrow(
      '"x tenant" is not a header or cookie name',
    );
    expect(() => mapPayload('bad', { from: 'cookies', schema: { sid: 'text' as never } })).toThrow(
      'the schema of "sid" must implement Standard Schema v1',
    );
    expect(() => mapPayload('bad', { from: 'headers', schema: z.object({}) as never })).toThrow('one Standard Schema per name');
  });
});
