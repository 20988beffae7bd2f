import type { HttpKernel } from '@switchboard/http-kernel';
import { serve } from '@switchboard/node-adapter';

export interface ServedKernel {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/** A kernel hosted by the real node adapter's `serve` on 127.0.0.1, any free port. */
export async function serveKernel(kernel: HttpKernel, bodyLimit = 8 * 1024 * 1024): Promise<ServedKernel> {
  const running = await serve(kernel, { port: 0, handleSignals: false, bodyLimit });
  return { origin: running.url, close: () => running.close() };
}
