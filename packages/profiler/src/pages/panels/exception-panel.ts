import { SourceExcerptReader, type FlattenedError, type FlattenedFrame, type SourceExcerpt } from '@switchboard/error-controller';
import type { ExceptionData } from '../../collector/exception-collector.js';
import { keyValueTable, plainValue } from '../markup/components.js';
import { html, type SafeHtml } from '../markup/html.js';
import type { PanelContext, PanelView } from './panel-view.js';

/** Frames of the application shown with source lines; the rest are listed. */
const FRAMES_WITH_SOURCE = 8;
/** Lines shown above and below a frame's line. */
const EXCERPT_RADIUS = 5;

export const exceptionPanel: PanelView<ExceptionData> = {
  name: 'exception',
  title: 'Exception',
  badge: (data) => ({ text: String(chainOf(data.error).length), tone: 'bad' }),
  async render(data: ExceptionData, { redactor }: PanelContext): Promise<SafeHtml> {
    const excerpts = new SourceExcerptReader();
    const chain = chainOf(data.error);
    const blocks: SafeHtml[] = [];
    for (const [index, error] of chain.entries()) {
      blocks.push(errorBlock(error, index, excerpts, (text) => redactor.text(text)));
    }
    return html`<h2>Exception</h2>
<p class="muted">${chain.length === 1 ? 'One error.' : html`${chain.length} errors: the error, then its cause chain (<code>error.cause</code>).`}</p>
${blocks}`;
  },
};

function chainOf(error: FlattenedError): FlattenedError[] {
  const chain: FlattenedError[] = [];
  for (let current: FlattenedError | null = error; current !== null; current = current.cause) chain.push(current);
  return chain;
}

function errorBlock(error: FlattenedError, index: number, excerpts: SourceExcerptReader, redact: (text: string) => string): SafeHtml {
  const frames: SafeHtml[] = [];
  let withSource = 0;
  for (const frame of error.frames) {
    const wantSource = !frame.vendor && withSource < FRAMES_WITH_SOURCE;
    const excerpt = wantSource ? excerpts.excerpt(frame.file, frame.line, EXCERPT_RADIUS) : null;
    if (excerpt !== null) withSource++;
    frames.push(frameBlock(frame, excerpt, redact));
  }
  const details = Object.entries(error.details);
  const where = error.file === null ? null : `${error.file}:${error.line ?? 0}`;
  return html`<section class="card${index > 0 ? ' cause' : ''}">
<h3>${index === 0 ? 'Error' : `Cause ${index}`} <span class="error-class">${error.class}</span> <span class="tag">${error.status} ${error.statusText}</span></h3>
<div class="frame"><p class="error-title">${error.message}</p>${where === null ? null : html`<div class="muted">thrown at <code>${where}</code></div>`}</div>
${Object.keys(error.headers).length > 0 ? keyValueTable(Object.entries(error.headers).map(([name, value]) => [`header ${name}`, plainValue(value)])) : null}
${details.length > 0 ? keyValueTable(details.map(([name, value]) => [name, plainValue(value)])) : null}
${frames.length === 0 ? html`<p class="empty">No stack trace.</p>` : frames}
</section>`;
}

function frameBlock(frame: FlattenedFrame, excerpt: SourceExcerpt | null, redact: (text: string) => string): SafeHtml {
  const location =
    frame.file === null ? 'native or anonymous code' : `${frame.file}:${frame.line ?? 0}${frame.column === null ? '' : `:${frame.column}`}`;
  return html`<div class="frame${frame.vendor ? ' vendor' : ''}">
<div class="where">${frame.function ?? '(top level)'} <span class="muted">at ${location}</span></div>
${
  excerpt === null
    ? null
    : html`<div class="excerpt">${excerpt.lines.map((line, offset) => {
        const number = excerpt.firstLine + offset;
        return html`<div${number === excerpt.highlighted ? html` class="hl"` : null}><span class="ln">${number}</span>${redact(line)}</div>`;
      })}</div>`
}
</div>`;
}
