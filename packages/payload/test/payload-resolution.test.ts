import type { StandardSchemaV1 } from '@standard-schema/spec';
import { AccessDeniedHttpError, defineController, EventDispatcher, JsonResponse, type KernelEventMap } from '@switchboard/http-kernel';
import type { DispatchTracer } from '@switchboard/http-kernel/tracing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mapPayload, RequestPayloadValueResolver, type Violation } from '../src/index.js';
import { createTestClient, type TestClient, type TestResponse } from '@switchboard/testing';
import { hostKernel } from '../../../test/kit/host-kernel.js';
import { payloadWiring } from './support/payload-wiring.js';

/** A Standard Schema written by hand: async, with a key that needs escaping in a JSON Pointer. */
const handWritten: StandardSchemaV1<unknown, { ok: true }> = {
  '~standard': {
    version: 1,
    vendor: 'hand-written',
    validate: async (value) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === true) return { value: { ok: true } };
      return { issues: [{ message: 'must be ok', path: [{ key: 'a/b~c' }, 0, Symbol('tail')] }, { message: 'root problem' }] };
    },
  },
};

const noteSchema = z.object({ text: z.string() });
let client: TestClient;
let calls = 0;
/** Receives the kernel's dispatch traces while set. */
let onTrace: DispatchTracer | null = null;

beforeAll(() => {
  const { kernel, dispatcher } = hostKernel(
    {
      'POST /hand-written': defineController([mapPayload('body', { from: 'json', schema: handWritten })], (body: { ok: true }) => {
        calls++;
        return new JsonResponse(body);
      }),
      'POST /optional-note': defineController(
        [{ ...mapPayload('note', { from: 'json', schema: noteSchema }), defaultValue: null }],
        (note: { text: string } | null) => new JsonResponse({ note }),
      ),
      'POST /guarded': defineController([mapPayload('note', { from: 'json', schema: noteSchema })], (note: { text: string }) => {
        calls++;
        return new JsonResponse(note);
      }),
      'POST /numbers': defineController([mapPayload('numbers', { from: 'json', schema: z.array(z.number()) })], () => new JsonResponse({})),
      'POST /small': defineController([mapPayload('note', { from: 'json', schema: noteSchema, maxBodyBytes: 16 })], () => {
        calls++;
        return new JsonResponse({});
      }),
    },
    { ...payloadWiring(), tracer: (trace, event) => onTrace?.(trace, event) },
  );
  // An authorization check at its usual priority (20) refusing one route: the payload step (0) must not run.
  dispatcher.on(
    'kernel.controller_arguments',
    (event) => {
      if (event.request.attributes.get('_route') === 'POST /guarded') throw new AccessDeniedHttpError();
    },
    20,
    { name: 'TestAuthorization.onControllerArguments' },
  );
  client = createTestClient(kernel);
});
afterAll(() => client.settled());

function post(path: string, body: string): Promise<TestResponse> {
  return client.post(path, { headers: { 'content-type': 'application/json', accept: 'application/json' }, body });
}

describe('payload resolution', () => {
  it('works with any Standard Schema, async validation included', async () => {
    const response = await post('/hand-written', '{"ok":true,"more":1}');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('escapes JSON Pointer segments and reports a root issue with the empty path', async () => {
    const before = calls;
    const response = await post('/hand-written', '{"ok":false}');
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { violations: Violation[]; detail: string };
    expect(problem.violations).toEqual([
      { path: '/a~1b~0c/0/tail', message: 'must be ok' },
      { path: '', message: 'root problem' },
    ]);
    expect(calls).toBe(before);
  });

  it('uses the declared default for an empty body, and validates a present one', async () => {
    const empty = await client.post('/optional-note');
    expect(await empty.json()).toEqual({ note: null });
    const present = await post('/optional-note', '{"text":"hi"}');
    expect(await present.json()).toEqual({ note: { text: 'hi' } });
    expect((await post('/optional-note', '{"text":1}')).status).toBe(422);
  });

  it('reads no body before the authorization check: a refused request is a 403, even with a bad body', async () => {
    const response = await post('/guarded', '{not json');
    expect(response.status).toBe(403);
  });

  it('lists at most maxViolations violations (default 100), so a hostile payload cannot make a huge error', async () => {
    const response = await post('/numbers', JSON.stringify(Array.from({ length: 500 }, (_, i) => `n${i}`)));
    expect(response.status).toBe(422);
    const violations = ((await response.json()) as { violations: Violation[] }).violations;
    expect(violations).toHaveLength(100);
    expect(violations[99]!.path).toBe('/99');
  });

  it('honours a per-argument body limit', async () => {
    const before = calls;
    expect((await post('/small', '{"text":"this is longer than sixteen bytes"}')).status).toBe(413);
    expect(calls).toBe(before);
  });

  it('appears, by name and priority, in the dispatch traces the profiler reads', async () => {
    const called: string[] = [];
    onTrace = (trace) => {
      for (const call of trace.called) called.push(`${trace.eventName} ${call.priority} ${call.name}`);
    };
    await post('/hand-written', '{"ok":true}');
    onTrace = null;
    expect(called).toContain('kernel.controller_arguments 0 RequestPayloadValueResolver.onControllerArguments');
  });

  it('runs at kernel.controller_arguments priority 0, under its own name', () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    dispatcher.addSubscriber(new RequestPayloadValueResolver());
    expect(dispatcher.getListeners('kernel.controller_arguments').map((listener) => [listener.name, listener.priority])).toEqual([
      ['RequestPayloadValueResolver.onControllerArguments', 0],
    ]);
  });

  it('refuses a declaration without a Standard Schema when the route is declared', () => {
    expect(() => mapPayload('x', { from: 'json', schema: {} as StandardSchemaV1 })).toThrow(/Standard Schema v1/);
    expect(() => mapPayload('x', { from: 'xml' as 'json', schema: noteSchema })).toThrow(/"from" must be/);
  });
});
