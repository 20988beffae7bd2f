/**
 * Node 26's diagnostics_channel enters each store bound to a tracing channel through
 * `store.withScope(value)`, a scope the OpenTelemetry context API has no way to open (it only runs
 * a callback inside a context), so `@switchboard/opentelemetry`'s bridge does not work there yet
 * (docs/observability.md). Its tests are skipped on those lines, visibly, rather than dropped.
 */
export const OPENTELEMETRY_BRIDGE_UNSUPPORTED = Number(process.versions.node.split('.')[0]) >= 26;
