import type { Transform } from 'node:stream';

/**
 * `source` compressed by `encoder`, as chunks the adapter writes as they come. Backpressure holds:
 * a source chunk is read only when the adapter asks for the next output (after the client took
 * the last one), and one chunk's output at most is held. With `flushEach`, every source chunk is
 * flushed out at once (an event stream: each event must reach the client now, not with the next).
 * A stream the adapter stops early (client gone) stops its source and frees the encoder.
 */
export async function* compressedStream(
  source: AsyncIterable<Uint8Array | string>,
  encoder: Transform,
  flushEach: boolean,
): AsyncGenerator<Buffer> {
  const output: Buffer[] = [];
  let failure: unknown = null;
  encoder.on('data', (chunk: Buffer) => output.push(chunk));
  encoder.on('error', (error) => (failure = error));
  const take = (): Buffer | null => {
    if (failure !== null) throw failure;
    if (output.length === 0) return null;
    const taken = output.length === 1 ? output[0]! : Buffer.concat(output);
    output.length = 0;
    return taken;
  };
  try {
    for await (const chunk of source) {
      await new Promise<void>((resolve, reject) => encoder.write(chunk, (error) => (error ? reject(error) : resolve())));
      if (flushEach) await new Promise<void>((resolve) => (encoder as Transform & { flush(done: () => void): void }).flush(resolve));
      const out = take();
      if (out !== null) yield out;
    }
    const ended = new Promise<void>((resolve, reject) => {
      encoder.once('end', resolve);
      encoder.once('error', reject);
    });
    encoder.end();
    await ended;
    const rest = take();
    if (rest !== null) yield rest;
  } finally {
    encoder.destroy();
  }
}
