import type { Request } from '@switchboard/http-kernel';
import type { EventStreamOutcome } from '@switchboard/http-kernel/sse';
import { controllerName, statusText } from '@switchboard/http-kernel/internal';
import { describeValue } from '../profile/describe-value.js';
import type { Redactor } from '../profile/redactor.js';
import type { CollectContext, DataCollector } from './data-collector.js';

export type HeaderList = ReadonlyArray<readonly [string, readonly string[]]>;

export interface RequestData {
  readonly method: string;
  /** Absolute URL with the query string, as received (percent-encoded). */
  readonly url: string;
  readonly path: string;
  readonly scheme: string;
  readonly host: string;
  readonly port: number;
  readonly protocolVersion: string;
  readonly clientIp: string;
  readonly route: string | null;
  readonly routeParams: Readonly<Record<string, unknown>>;
  readonly controller: string | null;
  readonly locale: string;
  readonly query: ReadonlyArray<readonly [string, string]>;
  readonly requestHeaders: HeaderList;
  /** Every request attribute, described as plain data. */
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly statusCode: number;
  readonly statusText: string;
  readonly contentType: string | null;
  readonly responseHeaders: HeaderList;
  /** For an event stream: the events sent and how it ended (`null` if it was still running). Absent otherwise. */
  readonly eventStream?: EventStreamOutcome | null;
}

/** The request and its response: what came in, what routing made of it, what went out. */
export class RequestCollector implements DataCollector<RequestData> {
  readonly name = 'request';

  collect({ recording, redactor }: CollectContext): RequestData {
    const request = recording.request;
    const response = recording.snapshot;
    const status = response?.status ?? 0;
    const responseHeaders = groupedHeaders(response?.headers ?? []);
    const controller = request.attributes.get('_controller');
    return {
      method: request.method,
      url: redactor.text(request.uri),
      path: redactor.text(request.rawPath),
      scheme: request.scheme,
      host: request.host,
      port: request.port,
      protocolVersion: request.protocolVersion,
      clientIp: request.clientIp,
      route: stringOrNull(request.attributes.get('_route')),
      routeParams: describeValue(request.attributes.get('_route_params') ?? {}) as Record<string, unknown>,
      controller: controller === undefined ? null : controllerName(controller),
      locale: request.locale,
      query: [...request.query].map(([name, value]) => [redactor.text(name), redactor.parameter(name, value)] as const),
      requestHeaders: redactHeaders([...request.headers], redactor),
      attributes: describeAttributes(request),
      statusCode: status,
      statusText: status === 0 ? '' : statusText(status),
      contentType: responseHeaders.find(([name]) => name === 'content-type')?.[1][0] ?? null,
      responseHeaders: redactHeaders(responseHeaders, redactor),
      ...(recording.eventStream === undefined ? {} : { eventStream: recording.eventStream }),
    };
  }
}

function redactHeaders(headers: HeaderList, redactor: Redactor): HeaderList {
  return headers.map(([name, values]) => [name, values.map((value) => redactor.header(name, value))] as const);
}

function describeAttributes(request: Request): Record<string, unknown> {
  return Object.fromEntries([...request.attributes.entries()].map(([key, value]) => [key, describeValue(value)]));
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A flat `[name, value, …]` list whose values of one name are adjacent, as name and values pairs. */
function groupedHeaders(flat: readonly string[]): HeaderList {
  const grouped: Array<[string, string[]]> = [];
  for (let i = 0; i < flat.length; i += 2) {
    const last = grouped[grouped.length - 1];
    if (last !== undefined && last[0] === flat[i]) last[1].push(flat[i + 1]!);
    else grouped.push([flat[i]!, [flat[i + 1]!]]);
  }
  return grouped;
}
