/**
 * The example host as deployed with tracing: its own process, `APP_DEBUG=0`,
 * `OTEL_EXPORTER_OTLP_ENDPOINT` naming a small OTLP/HTTP receiver in this test (a node:http server
 * on 127.0.0.1 taking `POST /v1/traces` in the JSON encoding). Requests go through the host; at
 * SIGTERM its shutdown sends the spans still queued; the receiver's spans are then checked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { DEFAULT_SERVICE_NAME } from '../src/wiring/observability.js';
import { securityConfigFromEnv } from '../src/security/security-config.js';
import { startHostProcess, type HostProcess } from './support/start-host.js';

/** An OTLP attribute value in the JSON encoding (64-bit integers may come as strings). */
interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans: Array<{
    resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
    scopeSpans: Array<{ scope?: { name?: string }; spans?: OtlpSpan[] }>;
  }>;
}

/** OTLP's SpanKind numbers (not the API's enum, which counts from 0). */
const OTLP_KIND = { INTERNAL: 1, SERVER: 2 } as const;
const OTLP_STATUS_ERROR = 2;

/** A span as the checks read it: attributes flattened to plain values. */
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  scope: string;
  service: string;
  attributes: Record<string, string | number | boolean>;
  statusCode: number;
}

const plainValue = (value: OtlpValue): string | number | boolean =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? ''));

const received: ReceivedSpan[] = [];
const receiverErrors: string[] = [];

/** The receiver: accepts `POST /v1/traces` with a JSON body, answers 404 to anything else. */
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      receiverErrors.push(`${request.method} ${request.url}`);
      response.writeHead(404).end();
      return;
    }
    if (!String(request.headers['content-type']).startsWith('application/json')) {
      receiverErrors.push(`content-type ${request.headers['content-type']}`);
      response.writeHead(415).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
    for (const resourceSpans of body.resourceSpans) {
      const service = resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
      for (const scopeSpans of resourceSpans.scopeSpans) {
        for (const span of scopeSpans.spans ?? []) {
          received.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            scope: scopeSpans.scope?.name ?? '',
            service,
            attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, plainValue(a.value)])),
            statusCode: span.status?.code ?? 0,
          });
        }
      }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

const scratch = mkdtempSync(join(tmpdir(), 'api-host-otel-'));
const keys = securityConfigFromEnv({}, new MemoryLogger(), scratch);
const INCOMING_TRACE = '0af7651916cd43dd8448eb211c80319c';
const INCOMING_PARENT = 'b7ad6b7169203331';
let host: HostProcess;
const answers: Record<string, number> = {};

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  host = await startHostProcess({
    APP_DEBUG: '0',
    API_HOST_CONFIG: '',
    JWT_SECRET_KEY: keys.privateKeyPath,
    JWT_PUBLIC_KEY: keys.publicKeyPath,
    JWT_PASSPHRASE: keys.passphrase!,
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_SERVICE_NAME: '',
    // As behind a proxy on this machine: the trace context it passes on is continued.
    TRUSTED_PROXIES: 'loopback',
  });
  const base = await host.url;
  const requests: Array<[string, Record<string, string>]> = [
    ['/api/items', {}],
    ['/health', { traceparent: `00-${INCOMING_TRACE}-${INCOMING_PARENT}-01` }],
    ['/nowhere', { accept: 'application/json' }],
    ['/api/me', { accept: 'application/json' }],
  ];
  for (const [path, headers] of requests) {
    const response = await fetch(`${base}${path}`, { headers });
    await response.arrayBuffer();
    answers[path] = response.status;
    expect(response.headers.get('server-timing'), path).toBeNull();
  }
  // Shutdown sends what the batch processor still holds before the process exits.
  host.child.kill('SIGTERM');
  expect(await host.exited).toBe(0);
});

afterAll(async () => {
  if (host !== undefined && host.child.exitCode === null) host.child.kill('SIGKILL');
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(scratch, { recursive: true, force: true });
});

const serverSpanOf = (path: string): ReceivedSpan => {
  const spans = received.filter((span) => span.kind === OTLP_KIND.SERVER && span.attributes['url.path'] === path);
  expect(spans, `one server span for ${path}`).toHaveLength(1);
  return spans[0]!;
};

describe('the example host with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it('answered as usual', () => {
    expect(answers).toEqual({ '/api/items': 200, '/health': 200, '/nowhere': 404, '/api/me': 401 });
    expect(receiverErrors).toEqual([]);
  });

  it('sends a server span per request, named after its route, under the default service name', () => {
    const items = serverSpanOf('/api/items');
    expect(items.name).toBe('GET /api/items');
    expect(items.scope).toBe('@switchboard/opentelemetry');
    expect(items.service).toBe(DEFAULT_SERVICE_NAME);
    expect(items.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.scheme': 'http',
      'http.route': '/api/items',
      'http.response.status_code': 200,
      'switchboard.route.name': 'items_list',
    });
    expect(items.statusCode).not.toBe(OTLP_STATUS_ERROR);
    expect(items.parentSpanId).toBe('');
    expect(serverSpanOf('/api/me').attributes).toMatchObject({ 'http.route': '/api/me', 'http.response.status_code': 401 });
  });

  it('continues the trace of an incoming traceparent', () => {
    const health = serverSpanOf('/health');
    expect(health.traceId).toBe(INCOMING_TRACE);
    expect(health.parentSpanId).toBe(INCOMING_PARENT);
    expect(health.attributes['http.route']).toBe('/health');
  });

  it("shows the 404's error page as a sub-request span under the request's span", () => {
    const missing = serverSpanOf('/nowhere');
    expect(missing.name).toBe('GET');
    expect(missing.attributes['http.route']).toBeUndefined();
    expect(missing.attributes['http.response.status_code']).toBe(404);
    expect(missing.statusCode).not.toBe(OTLP_STATUS_ERROR);
    const sub = received.filter((span) => span.parentSpanId === missing.spanId);
    expect(sub).toHaveLength(1);
    expect(sub[0]!).toMatchObject({ kind: OTLP_KIND.INTERNAL, traceId: missing.traceId });
    expect(sub[0]!.name).toMatch(/^sub-request /);
    expect(sub[0]!.attributes).toMatchObject({ 'switchboard.request.type': 'sub', 'http.response.status_code': 404 });
  });

  it('sends no listener spans unless asked to', () => {
    expect(received.filter((span) => span.attributes['switchboard.listener.name'] !== undefined)).toEqual([]);
  });
});
