import type { FlattenedError, FlattenedFrame } from '../flatten/flatten-error.js';
import type { ErrorRenderer, RenderedError } from './error-renderer.js';

/**
 * `text/plain`: the status line outside debug mode; in debug mode also the class, message, frames
 * and causes, laid out like a Node stack trace.
 */
export class TextErrorRenderer implements ErrorRenderer {
  readonly accepts = ['text/plain'] as const;
  readonly showsSourceLines = false;

  constructor(private readonly options: { debug: boolean }) {}

  render(error: FlattenedError): RenderedError {
    let body = `${error.status} ${error.statusText}\n`;
    if (this.options.debug) {
      for (let current: FlattenedError | null = error, first = true; current !== null; current = current.cause, first = false) {
        body += `\n${first ? '' : 'Caused by: '}${current.class}: ${current.message}\n${current.frames.map(frameLine).join('')}`;
      }
    }
    return { body, contentType: 'text/plain; charset=UTF-8' };
  }
}

function frameLine(frame: FlattenedFrame): string {
  const where = frame.file === null ? 'native' : `${frame.file}:${frame.line ?? 0}:${frame.column ?? 0}`;
  return frame.function === null ? `    at ${where}\n` : `    at ${frame.function} (${where})\n`;
}
