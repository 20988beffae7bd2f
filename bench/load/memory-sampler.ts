/**
 * Preloaded into the host process by the load benchmarks (`--import`): sends the parent its
 * memory use every 100 ms over the IPC channel, and a sample after a full GC when asked (`'gc'`;
 * the host runs with `--expose-gc`). Never keeps the host alive.
 */
export interface MemorySample {
  rss: number;
  heapUsed: number;
  afterGc: boolean;
}

const send = (afterGc: boolean): void => {
  const { rss, heapUsed } = process.memoryUsage();
  process.send?.({ rss, heapUsed, afterGc } satisfies MemorySample);
};

if (process.send !== undefined) {
  setInterval(() => send(false), 100).unref();
  process.on('message', (message) => {
    if (message !== 'gc') return;
    for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
    send(true);
  });
  process.channel?.unref();
}
