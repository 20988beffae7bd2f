import { EventStreamResponse } from '../sse/event-stream-response.js';
import { JsonResponse, Response } from '../http/response.js';
import type { EncodeContext, Encoder } from './encoder.js';
import { line, NdjsonResponse } from './ndjson-response.js';

/** `application/json`: a value as one document; an async iterable as a JSON array written as it comes. */
export const jsonEncoder: Encoder = {
  format: 'json',
  mediaType: 'application/json',
  encode: (data, { status, headers }) => new JsonResponse(data, status, headers),
  encodeStream: (items, context) => streamed(context, 'application/json', jsonArray(items)),
};

/** `application/x-ndjson`: one JSON document per line, for each element of a list or an async iterable. */
export const ndjsonEncoder: Encoder = {
  format: 'ndjson',
  mediaType: 'application/x-ndjson',
  sequence: true,
  encode: (data, { status, headers }) => new NdjsonResponse(data, status, headers, 'application/x-ndjson'),
  encodeStream: (items, context) => streamed(context, 'application/x-ndjson', ndjsonLines(items)),
};

/** `text/event-stream`: each value of an async iterable as one event whose data is its JSON. */
export const eventStreamEncoder: Encoder = {
  format: 'event-stream',
  mediaType: 'text/event-stream',
  sequence: true,
  encodeStream: (items, { request, headers }) => {
    const response = new EventStreamResponse(request, events(items));
    for (const [name, value] of headers) if (name !== 'date') response.headers.set(name, value);
    return response;
  },
};

function streamed(context: EncodeContext, contentType: string, body: AsyncIterable<string>): Response {
  return new Response(body, context.status, context.headers.set('content-type', contentType));
}

async function* ndjsonLines(items: AsyncIterable<unknown>): AsyncGenerator<string> {
  for await (const item of items) yield line(item);
}

async function* jsonArray(items: AsyncIterable<unknown>): AsyncGenerator<string> {
  let separator = '[';
  for await (const item of items) {
    yield `${separator}${JSON.stringify(item) ?? 'null'}`;
    separator = ',';
  }
  yield separator === '[' ? '[]' : ']';
}

async function* events(items: AsyncIterable<unknown>): AsyncGenerator<{ data: unknown }> {
  for await (const data of items) yield { data };
}
