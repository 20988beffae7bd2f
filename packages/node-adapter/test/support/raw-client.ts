import net from 'node:net';
import tls from 'node:tls';

/**
 * Sends `text` as is over a new TCP (or TLS) connection to 127.0.0.1 and resolves with everything
 * received until the server closes, or after `waitMs` (bounded, so a test never hangs).
 */
export function rawExchange(port: number, text: string | string[], { waitMs = 3000, secure = false } = {}): Promise<string> {
  return rawExchangeDetailed(port, text, { waitMs, secure }).then((result) => result.received);
}

/** As `rawExchange`, also telling whether the server closed the connection before `waitMs`. */
export function rawExchangeDetailed(
  port: number,
  text: string | string[],
  { waitMs = 3000, secure = false } = {},
): Promise<{ received: string; closedByServer: boolean }> {
  let timedOut = false;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = secure
      ? tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] })
      : net.connect({ port, host: '127.0.0.1' });
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, waitMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      for (const part of Array.isArray(text) ? text : [text]) socket.write(part);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received: Buffer.concat(chunks).toString('latin1'), closedByServer: !timedOut });
    });
  });
}

/** Status code of the first response in a raw exchange. */
export function statusOfRaw(raw: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
}
