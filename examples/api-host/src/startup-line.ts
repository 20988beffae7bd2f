import type { App } from './app.js';

/** `api-host listening on <url> — debug mode ON, profiler at <url>/_profiler/latest` (or OFF). */
export function startupLine(app: Pick<App, 'debug' | 'profilerPath' | 'config'>, listeningUrl: string): string {
  const publicUrl = app.config.baseUrl ?? listeningUrl;
  const where = app.config.baseUrl === null ? '' : ` (public URL ${app.config.baseUrl})`;
  if (!app.debug) return `api-host listening on ${listeningUrl}${where} — debug mode OFF`;
  const profiler = app.profilerPath === null ? 'profiler not installed' : `profiler at ${publicUrl}${app.profilerPath}/latest`;
  return `api-host listening on ${listeningUrl}${where} — debug mode ON (do not expose it), ${profiler}`;
}
