import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpKernel } from '@switchboard/http-kernel';
import { NodeAdapter } from '@switchboard/node-adapter';

export interface ServedKernel {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/** A kernel hosted by the real node adapter on a node:http server at 127.0.0.1, any free port. */
export async function serveKernel(kernel: HttpKernel, bodyLimit = 8 * 1024 * 1024): Promise<ServedKernel> {
  const adapter = new NodeAdapter(kernel, { bodyLimit });
  const server = createServer(adapter.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      await adapter.drain();
    },
  };
}
