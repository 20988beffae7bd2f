import { describe, expect, it } from 'vitest';
import {
  EventDispatcher,
  HttpError,
  HttpKernel,
  JsonResponse,
  NotAcceptableHttpError,
  Request,
  Response,
  type KernelEventMap,
  type ResponseBody,
} from '../src/index.js';
import { ViewListener, view, type Encoder } from '../src/view.js';

interface Route {
  controller: (request: Request) => unknown;
  formats?: readonly string[];
}

/** A kernel with the view listener, a path → route table at 32, and errors answered as `<status> <message>`. */
function viewKernel(routes: Record<string, Route>, encoders: readonly Encoder[] = []) {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const errors: unknown[] = [];
  dispatcher.addSubscriber(new ViewListener({ encoders }));
  dispatcher.on(
    'kernel.request',
    (event) => {
      const route = routes[event.request.path]!;
      event.request.attributes.set('_controller', route.controller).set('_route', event.request.path);
      if (route.formats !== undefined) event.request.attributes.set('_formats', route.formats);
    },
    32,
  );
  dispatcher.on('kernel.exception', (event) => {
    errors.push(event.throwable);
    const status = event.throwable instanceof HttpError ? event.throwable.status : 500;
    event.setResponse(new Response(`${status} ${(event.throwable as Error).message}`, status));
  });
  const kernel = new HttpKernel({ dispatcher });
  return {
    errors,
    get: (path: string, accept?: string) =>
      kernel.handle(Request.fromUrl(`http://localhost${path}`, accept === undefined ? {} : { headers: { accept } })),
  };
}

async function text(body: ResponseBody): Promise<string> {
  if (body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString();
  let out = '';
  for await (const chunk of body) out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
  return out;
}

async function* countTo(n: number): AsyncGenerator<{ n: number }> {
  for (let i = 1; i <= n; i++) yield { n: i };
}

const items = [{ id: 1 }, { id: 2 }];

const app = viewKernel({
  '/data': { controller: () => items },
  '/list': { controller: () => items, formats: ['json', 'ndjson'] },
  '/created': { controller: () => view({ id: 3 }, { status: 201, headers: { location: '/items/3' } }) },
  '/stream': { controller: () => countTo(3) },
  '/stream-json': { controller: () => countTo(2), formats: ['json', 'ndjson'] },
  '/response': { controller: () => new JsonResponse({ own: true }, 200, { vary: 'Origin' }) },
  '/nothing': { controller: () => undefined },
  '/null': { controller: () => null },
  '/unknown': { controller: () => items, formats: ['xml'] },
  '/only-streams': { controller: () => items, formats: ['event-stream'] },
  '/not-a-list': { controller: () => items, formats: 'json' as unknown as readonly string[] },
});

describe('ViewListener', () => {
  it('answers plain data as JSON, with Vary: Accept', async () => {
    const response = await app.get('/data');
    expect(response.status).toBe(200);
    expect(response).toBeInstanceOf(JsonResponse);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(await text(response.body)).toBe('[{"id":1},{"id":2}]');
  });

  it('keeps a view’s status and headers', async () => {
    const response = await app.get('/created');
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/items/3');
    expect(await text(response.body)).toBe('{"id":3}');
  });

  it('answers NDJSON, one line per element, when the route offers it and the client prefers it', async () => {
    const response = await app.get('/list', 'application/x-ndjson');
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(await text(response.body)).toBe('{"id":1}\n{"id":2}\n');
    expect(await text((await app.get('/list', 'application/json;q=0.9, */*;q=0.1')).body)).toBe('[{"id":1},{"id":2}]');
    expect(await text((await app.get('/list')).body)).toBe('[{"id":1},{"id":2}]');
  });

  it('refuses with a 406 listing the offered types when the client accepts none', async () => {
    const response = await app.get('/list', 'application/xml');
    expect(response.status).toBe(406);
    const error = app.errors.at(-1);
    expect(error).toBeInstanceOf(NotAcceptableHttpError);
    expect((error as NotAcceptableHttpError).details).toEqual({ available: ['application/json', 'application/x-ndjson'] });
    expect((await app.get('/data', 'text/html')).status).toBe(406);
    expect((await app.get('/data', 'application/json;q=0')).status).toBe(406);
  });

  it('streams an async iterable as NDJSON by default, or as events when the client asks for them', async () => {
    const ndjson = await app.get('/stream');
    expect(ndjson.headers.get('content-type')).toBe('application/x-ndjson');
    expect(typeof ndjson.body).toBe('object');
    expect(await text(ndjson.body)).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    const events = await app.get('/stream', 'text/event-stream');
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    expect(events.headers.get('vary')).toBe('Accept');
    expect(await text(events.body)).toBe(':\n\ndata: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\n');
  });

  it('streams an async iterable as a JSON array when JSON is chosen', async () => {
    expect(await text((await app.get('/stream-json')).body)).toBe('[{"n":1},{"n":2}]');
  });

  it('leaves a returned Response as it is', async () => {
    const response = await app.get('/response');
    expect(response.headers.get('vary')).toBe('Origin');
  });

  it('leaves undefined to the kernel (a controller that returned nothing is an error), and answers null as JSON', async () => {
    expect((await app.get('/nothing')).status).toBe(500);
    expect(await text((await app.get('/null')).body)).toBe('null');
  });

  it('names an unknown format, a route with no format for the value, and formats that are not a list, in a 500', async () => {
    expect(await text((await app.get('/unknown')).body)).toMatch(/offers the format "xml", which no encoder writes/);
    expect(await text((await app.get('/only-streams')).body)).toMatch(/no format that can write a value/);
    expect(await text((await app.get('/not-a-list')).body)).toMatch(/_formats option of route "\/not-a-list" must be a non-empty list/);
  });

  it('takes encoders a user registers, by format name', async () => {
    const csv: Encoder = {
      format: 'csv',
      mediaType: 'text/csv',
      encode: (data, { status, headers }) =>
        new Response(
          (data as Array<{ id: number }>).map((row) => `${row.id}\r\n`).join(''),
          status,
          headers.set('content-type', 'text/csv'),
        ),
    };
    const withCsv = viewKernel({ '/items': { controller: () => items, formats: ['json', 'csv'] } }, [csv]);
    const response = await withCsv.get('/items', 'text/csv');
    expect(response.headers.get('content-type')).toBe('text/csv');
    expect(await text(response.body)).toBe('1\r\n2\r\n');
  });
});
