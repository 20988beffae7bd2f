import { html, type SafeHtml } from './html.js';

export type Row = readonly [label: string, value: SafeHtml | string | number | null | undefined];

/** A titled box. */
export function card(title: string | SafeHtml, content: SafeHtml): SafeHtml {
  return html`<section class="card"><h3>${title}</h3>${content}</section>`;
}

/** Label/value rows; an empty list says so. */
export function keyValueTable(rows: readonly Row[], emptyText = 'Nothing.'): SafeHtml {
  if (rows.length === 0) return html`<p class="empty">${emptyText}</p>`;
  return html`<table>${rows.map(([label, value]) => html`<tr><th>${label}</th><td>${value ?? html`<span class="muted">none</span>`}</td></tr>`)}</table>`;
}

/** Headers, one row per value. */
export function headerTable(headers: ReadonlyArray<readonly [string, readonly string[]]>): SafeHtml {
  const rows: Row[] = [];
  for (const [name, values] of headers) for (const value of values) rows.push([name, html`<code>${value}</code>`]);
  return keyValueTable(rows, 'No headers.');
}

/** Any plain data as indented JSON text (escaped by `html`). */
export function jsonBlock(value: unknown): SafeHtml {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? 'undefined';
  } catch {
    text = String(value);
  }
  return html`<pre>${text}</pre>`;
}

/** A value from plain data: strings as code, anything else as JSON. */
export function plainValue(value: unknown): SafeHtml {
  if (typeof value === 'string') return html`<code>${value}</code>`;
  if (value === null || typeof value !== 'object') return html`<code>${String(value)}</code>`;
  return jsonBlock(value);
}

/** Link to another profile; tokens are validated hex, encoded anyway. */
export function profileLink(base: string, token: string, label: string | SafeHtml = token, panel?: string): SafeHtml {
  const href = `${base}/${encodeURIComponent(token)}${panel === undefined ? '' : `?panel=${encodeURIComponent(panel)}`}`;
  return html`<a href="${href}">${label}</a>`;
}

export function formatMs(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(ms >= 10 ? 1 : 2)} ms`;
}

export function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${mib.toFixed(1)} MiB`;
}

export function formatTime(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

export function statusClass(status: number): string {
  return `s${Math.floor(status / 100)}`;
}
