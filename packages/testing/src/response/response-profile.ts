/**
 * What `@switchboard/profiler` recorded about a request, as the client hands it out: the stored
 * profile with its collectors by panel name (`events`, `router`, `logger`, `security`,
 * `exception`, `request`, `time`…). `Profile` of the profiler fits it.
 */
export interface ResponseProfile {
  readonly token: string;
  /** The token of the request this one was a sub-request of; `null` for a main request. */
  readonly parentToken: string | null;
  readonly method: string;
  readonly url: string;
  readonly statusCode: number;
  readonly collectors: Readonly<Record<string, unknown>>;
  /** Profiles of the sub-requests (the error page's), loaded with it. */
  readonly children: readonly ResponseProfile[];
  /** The data a collector stored, typed by the caller who knows the collector. */
  getCollector<T>(name: string): T | undefined;
}

/** Where profiles are read: a `Profiler` of `@switchboard/profiler` fits. */
export interface ProfileReader {
  loadProfile(token: string): Promise<ResponseProfile | null>;
}

/** The key under which `registerProfiler` leaves its profiler on the dispatcher it returns. */
const PROFILER_KEY = Symbol.for('@switchboard/profiler');

/** The profiler of a kernel whose dispatcher `registerProfiler` returned; `null` when it has none. */
export function profilerOfKernel(kernel: { readonly dispatcher?: object }): ProfileReader | null {
  const dispatcher = kernel.dispatcher as { [PROFILER_KEY]?: ProfileReader } | undefined;
  return dispatcher?.[PROFILER_KEY] ?? null;
}

/** The header the profiler's token listener sets on profiled responses. */
export const DEBUG_TOKEN_HEADER = 'x-debug-token';
