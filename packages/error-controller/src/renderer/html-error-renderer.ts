import he from 'he';
import { requestIdOf, type Request } from '@switchboard/http-kernel';
import type { FlattenedError, FlattenedFrame } from '../flatten/flatten-error.js';
import { REDACTED_REQUEST_HEADERS, type ErrorRenderer, type RenderedError } from './error-renderer.js';
import { ERROR_PAGE_CSS } from './html-error-page-style.js';

const esc = (text: string): string => he.escape(text);

/**
 * HTML error pages. Outside debug mode: a short page with the status and its reason phrase only.
 * In debug mode: the message, the cause chain, every frame with the code around it (collapsible,
 * `<details>`), and a summary of the request that failed. No script, no external asset; every
 * string from the request or an error is escaped with `he`.
 */
export class HtmlErrorRenderer implements ErrorRenderer {
  readonly accepts = ['text/html'] as const;
  readonly showsSourceLines = true;

  constructor(private readonly options: { debug: boolean }) {}

  render(error: FlattenedError, request: Request): RenderedError {
    const body = this.options.debug ? debugPage(error, failedRequest(request)) : shortPage(error);
    return { body, contentType: 'text/html; charset=UTF-8' };
  }
}

/** The error sub-request carries the failed request's URL and headers but GET; show the original. */
function failedRequest(request: Request): Request {
  return request.requestStack?.getParentRequest() ?? request;
}

function document(title: string, content: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="robots" content="noindex,nofollow">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${ERROR_PAGE_CSS}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;
}

function shortPage(error: FlattenedError): string {
  const status = `${error.status} ${esc(error.statusText)}`;
  return document(
    status,
    `<header><p class="status">Error ${error.status}</p><p class="message">${esc(error.statusText)}</p></header>
<p>The server answered &ldquo;${status}&rdquo;. Please check the address, or try again later.</p>`,
  );
}

function debugPage(error: FlattenedError, request: Request): string {
  const site = error.file === null ? '' : `<p class="site">thrown at <code>${esc(error.file)}:${error.line ?? 0}</code></p>`;
  const chain: FlattenedError[] = [];
  for (let current: FlattenedError | null = error; current !== null; current = current.cause) chain.push(current);
  return document(
    `${esc(error.message)} (${error.status} ${esc(error.statusText)})`,
    `<header>
<p class="status">${error.status} ${esc(error.statusText)}</p>
<h1>${esc(error.class)}</h1>
<p class="message">${esc(error.message)}</p>
${site}
</header>
<h2>Stack trace${chain.length > 1 ? `, then ${chain.length - 1} cause${chain.length > 2 ? 's' : ''}` : ''}</h2>
${chain.map((link, index) => errorArticle(link, index)).join('\n')}
<h2>Request</h2>
${requestTable(request)}`,
  );
}

function errorArticle(error: FlattenedError, index: number): string {
  // The header already shows the first error's class and message; its article starts at the frames.
  const heading =
    index === 0 ? '' : `<p class="muted">Caused by</p>\n<h3>${esc(error.class)}</h3>\n<p class="message">${esc(error.message)}</p>`;
  const details = Object.keys(error.details).length === 0 ? '' : `<pre><span>${esc(JSON.stringify(error.details, null, 2))}</span></pre>`;
  const firstOwn = error.frames.findIndex((frame) => !frame.vendor && frame.excerpt !== undefined);
  const frames = error.frames.map((frame, i) => frameItem(frame, i === firstOwn)).join('\n');
  return `<article>
${heading}
${details}
${error.frames.length === 0 ? '<p class="muted">No stack trace.</p>' : `<ol class="frames">\n${frames}\n</ol>`}
</article>`;
}

function frameItem(frame: FlattenedFrame, open: boolean): string {
  const where =
    frame.file === null
      ? 'native code'
      : `${frame.file}${frame.line === null ? '' : `:${frame.line}`}${frame.column === null ? '' : `:${frame.column}`}`;
  const summary = `<summary><span class="fn">${esc(frame.function ?? '(anonymous)')}</span> <span class="muted">${esc(where)}</span></summary>`;
  const code =
    frame.excerpt === undefined
      ? '<p class="muted">Source not available.</p>'
      : `<pre>${frame.excerpt.lines
          .map((line, i) => {
            const number = frame.excerpt!.firstLine + i;
            return `<span${number === frame.excerpt!.highlighted ? ' class="hit"' : ''}><i>${number}</i>${esc(line)}</span>`;
          })
          .join('')}</pre>`;
  return `<li class="${frame.vendor ? 'vendor' : 'own'}"><details${open ? ' open' : ''}>${summary}${code}</details></li>`;
}

function requestTable(request: Request): string {
  const rows: Array<[string, string]> = [
    ['Method', request.method],
    ['URL', request.uri],
    ['Client IP', request.clientIp],
    ['Protocol', `HTTP/${request.protocolVersion}`],
  ];
  const requestId = requestIdOf(request);
  if (requestId !== undefined) rows.unshift(['Request id', requestId]);
  for (const [name, values] of request.headers) {
    rows.push([name, REDACTED_REQUEST_HEADERS.has(name) ? '(redacted)' : values.join(', ')]);
  }
  return `<table>\n${rows.map(([name, value]) => `<tr><th>${esc(name)}</th><td>${esc(value)}</td></tr>`).join('\n')}\n</table>`;
}
