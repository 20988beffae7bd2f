import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

/** One part of a hand-built multipart body: a field, or a file when `filename` is given. */
export interface Part {
  readonly name: string;
  readonly value: string | Uint8Array;
  readonly filename?: string;
  readonly type?: string;
}

export const BOUNDARY = '----switchboard-test-boundary';

/** The head of one part, up to and including the blank line before its content. */
export function partHead(part: Omit<Part, 'value'>, boundary = BOUNDARY): string {
  const disposition =
    part.filename === undefined ? `form-data; name="${part.name}"` : `form-data; name="${part.name}"; filename="${part.filename}"`;
  const type = part.filename === undefined ? '' : `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n`;
  return `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`;
}

/** A whole `multipart/form-data` body; `closed: false` leaves out the closing delimiter (a truncated body). */
export function multipartBody(parts: readonly Part[], { boundary = BOUNDARY, closed = true } = {}): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(Buffer.from(partHead(part, boundary)), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  if (closed) pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

/** The files under `folder`, however deep (the uploads' private folders hold them). */
export function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

export interface StreamedUpload {
  /** Everything the server sent back, as latin1 text. */
  readonly received: string;
  /** Body bytes written by the client before the answer's status line arrived. */
  readonly sentBeforeAnswer: number;
}

/**
 * POSTs over a raw socket a multipart body of one file part of `fileBytes` bytes, generated
 * chunk by chunk as the socket takes it (never held whole); resolves
 * when the server closes the connection (at most `waitMs`).
 */
export function streamLargeUpload(port: number, path: string, fileBytes: number, waitMs = 20_000): Promise<StreamedUpload> {
  const head = Buffer.from(partHead({ name: 'doc', filename: 'big.bin' }));
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const length = head.length + fileBytes + tail.length;
  const chunk = Buffer.alloc(64 * 1024, 'z');
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let received = '';
    let sent = 0;
    let sentBeforeAnswer = -1;
    const timer = setTimeout(() => socket.destroy(), waitMs);
    const pump = (): void => {
      while (sent < fileBytes && !socket.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, fileBytes - sent));
        sent += part.length;
        if (!socket.write(part)) return void socket.once('drain', pump);
      }
      if (sent === fileBytes && !socket.destroyed) socket.write(tail);
    };
    socket.on('data', (data: Buffer) => {
      if (sentBeforeAnswer < 0) sentBeforeAnswer = sent;
      received += data.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, sentBeforeAnswer });
    });
    socket.once('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n\r\n`,
      );
      socket.write(head);
      pump();
    });
  });
}

export interface UploadServer {
  readonly port: number;
  readonly origin: string;
  stop(): Promise<void>;
}

/** Starts `upload-server.ts` in a child process (its temporary files under `folder`); resolves once it listens (at most 60 s). */
export function startUploadServer(folder: string): Promise<UploadServer> {
  const script = fileURLToPath(new URL('./upload-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=@switchboard/source', '--import', 'tsx', script, folder], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error('The upload server did not start within 60 s.'));
    }, 60_000);
    let output = '';
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      const port = Number(/^(\d+)\n/.exec(output)?.[1]);
      if (!(port > 0)) return;
      clearTimeout(timer);
      resolve({ port, origin: `http://127.0.0.1:${port}`, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The upload server exited (${code}) before listening.`));
    });
  });
}
