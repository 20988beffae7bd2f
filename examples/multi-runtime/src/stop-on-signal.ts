import { shutDownFetchServer, type FetchHandler } from '@switchboard/node-adapter/fetch';
import { announceShutdown } from './app.ts';

/**
 * The SIGTERM and SIGINT listener of a fetch-handler entry: finishes what is in flight, runs
 * kernel.terminate, closes the server, then exits (1 when that took longer than the timeout).
 * Later signals are the same stop and change nothing.
 */
export function stopOnSignal(runtime: string, handler: FetchHandler, closeServer: () => unknown, exit: (code: number) => void): () => void {
  let stopping = false;
  return () => {
    if (stopping) return;
    stopping = true;
    announceShutdown(runtime);
    void shutDownFetchServer(handler, { closeServer }).then((inTime) => exit(inTime ? 0 : 1));
  };
}
