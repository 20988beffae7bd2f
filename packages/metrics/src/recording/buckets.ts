/**
 * `http.server.request.duration`'s bucket bounds in seconds, as the OpenTelemetry HTTP semantic
 * conventions advise them (stable since v1.23).
 */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * Body size bounds in bytes. The conventions advise none for `http.server.request.body.size` and
 * `http.server.response.body.size`; a decade apart from 100 B to 100 MB keeps 8 buckets a series
 * and separates the sizes an API sees (an empty answer, a small JSON document, a page, an upload).
 */
export const BODY_SIZE_BUCKETS: readonly number[] = [0, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];
