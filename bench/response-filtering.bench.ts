/**
 * Response filtering by schema: the cost of dropping undeclared members from a JSON answer,
 * against the cost of writing the answer unfiltered. The same data for every contender: an item of
 * ten members, three of them not in its schema (a password hash, an internal note, a supplier id),
 * alone and in a list of 50.
 * - `JSON.stringify` of the unfiltered data: the baseline, what an answer costs without filtering;
 * - Switchboard: `ResponseSchemaListener` (production mode) on the controller's `JsonResponse`,
 *   then its body read as the adapter reads it: the projection compiled once per schema, then one
 *   `JSON.stringify`;
 * - Switchboard from the controller's value: the same, the response made by the `ViewListener` from
 *   plain data (`kernel.view`: the route's formats, `Accept`, `Vary`), as a controller that returns
 *   data gets it;
 * - Switchboard's `JsonResponse` body without a schema: what the listener adds to an answer;
 * - fast-json-stringify, compiled once from the same JSON Schema (it drops undeclared members too).
 * Every contender's output is checked first (same members, same values). Each is timed at its
 * fastest of 25 rounds taken in turn, so a busy phase of the machine touches all alike.
 * Run: `cd bench && node --import tsx response-filtering.bench.ts`
 */
import './built-packages.js';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import {
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  Request,
  RequestType,
  ResponseEvent,
  ViewEvent,
  type KernelEventMap,
  type Response,
} from '@switchboard/http-kernel';
import { ViewListener } from '@switchboard/http-kernel/view';
import { defineResponses, ResponseSchemaListener } from '@switchboard/openapi';
import { machineLine, reportJson } from './report.js';

/** Many short rounds, the fastest kept: on a shared machine, some rounds run undisturbed. */
const ROUNDS = 25;
const ITERATIONS = 2000;

const Item = z.object({
  id: z.number().int(),
  name: z.string(),
  quantity: z.number().int(),
  price: z.number(),
  currency: z.string(),
  tags: z.array(z.string()),
  createdAt: z.string(),
});

function item(id: number) {
  return {
    id,
    name: `Desk lamp ${id}`,
    quantity: id % 17,
    price: 19.5 + id,
    currency: 'EUR',
    tags: ['lighting', 'desk'],
    createdAt: new Date(Date.UTC(2026, 10, 1, 12, 0, id % 60)).toISOString(),
    passwordHash: `scrypt$16384$8$1$${'a'.repeat(32)}`,
    internalNote: 'restock before the holidays, ask the supplier about the "premium" line',
    supplierId: 4242 + id,
  };
}
const declared = ({ passwordHash: _p, internalNote: _n, supplierId: _s, ...rest }: ReturnType<typeof item>) => rest;

const kernel = new HttpKernel({ dispatcher: new EventDispatcher<KernelEventMap>() });
const listener = new ResponseSchemaListener();
const viewListener = new ViewListener();

/** Each time: a response (by `respond`), filtered by the listener, then its body as the adapter reads it. */
function switchboard(responses: ReturnType<typeof defineResponses>, respond: (request: Request) => Response): () => string {
  const request = Request.fromUrl('http://localhost/api/items');
  request.attributes.set('_responses', responses);
  return () => {
    const response = respond(request);
    void listener.onKernelResponse(new ResponseEvent(kernel, request, RequestType.MAIN, response));
    return response.body as string;
  };
}

function viewOf(data: unknown): (request: Request) => Response {
  return (request) => {
    const event = new ViewEvent(kernel, request, RequestType.MAIN, data);
    viewListener.onKernelView(event);
    return event.response!;
  };
}

function timed(work: () => unknown): number {
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i++) work();
  return performance.now() - started;
}

const rows: Array<{ case: string; contender: string; perCall: string; ratio: string }> = [];
for (const [name, data, schema] of [
  ['one item (10 members, 3 undeclared)', item(1), Item],
  ['a list of 50 items', Array.from({ length: 50 }, (_, i) => item(i + 1)), z.array(Item)],
] as const) {
  const jsonSchema = z.toJSONSchema(schema) as Record<string, unknown>;
  const contenders: Array<[string, () => string]> = [
    ['JSON.stringify, unfiltered (baseline)', () => JSON.stringify(data)],
    ['Switchboard ResponseSchemaListener + body', switchboard(defineResponses({ 200: schema }), () => new JsonResponse(data))],
    [
      'Switchboard from the returned value: ViewListener + ResponseSchemaListener + body',
      switchboard(defineResponses({ 200: schema }), viewOf(data)),
    ],
    ['Switchboard JsonResponse body, unfiltered', () => new JsonResponse(data).body as string],
    [
      'fast-json-stringify',
      (
        (stringify) => () =>
          stringify(data)
      )(fastJson(jsonSchema)),
    ],
  ];
  const expected = JSON.stringify(Array.isArray(data) ? data.map(declared) : declared(data as ReturnType<typeof item>));
  for (const [contender, run] of contenders.filter(([contender]) => !contender.includes('unfiltered'))) {
    const written = run();
    if (JSON.stringify(JSON.parse(written)) !== expected) throw new Error(`${contender} wrote ${written.slice(0, 200)}`);
  }
  const best = contenders.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < ROUNDS; round++) {
    contenders.forEach(([, run], index) => {
      best[index] = Math.min(best[index]!, timed(run));
    });
  }
  contenders.forEach(([contender], index) => {
    rows.push({
      case: name,
      contender,
      perCall: `${((best[index]! * 1000) / ITERATIONS).toFixed(2)} µs`,
      ratio: `${(best[index]! / best[0]!).toFixed(2)}×`,
    });
  });
}

console.log(`\n## Response filtering by schema\n${machineLine()}\n`);
console.log('| case | contender | per call | vs JSON.stringify |\n|---|---|---:|---:|');
for (const row of rows) console.log(`| ${row.case} | ${row.contender} | ${row.perCall} | ${row.ratio} |`);
reportJson('response filtering', rows);
