import type { LoggerData } from '../../collector/logger-collector.js';
import { formatTime, jsonBlock, profileLink } from '../markup/components.js';
import { html, type SafeHtml } from '../markup/html.js';
import type { PanelContext, PanelView } from './panel-view.js';

export const loggerPanel: PanelView<LoggerData> = {
  name: 'logger',
  title: 'Logs',
  badge(data) {
    const errors = (data.counts.ERROR ?? 0) + (data.counts.CRITICAL ?? 0);
    if (errors > 0) return { text: String(errors), tone: 'bad' };
    if ((data.counts.WARNING ?? 0) > 0) return { text: String(data.counts.WARNING), tone: 'warn' };
    return { text: String(data.records.length) };
  },
  render(data: LoggerData, { base, profile }: PanelContext): SafeHtml {
    const summary = Object.entries(data.counts).map(([level, count]) => html`<span class="tag ${level}">${level} ${count}</span> `);
    return html`<h2>Logs</h2>
${
  data.records.length === 0
    ? html`<p class="empty">Nothing was logged through the profiling logger during this request.</p>`
    : html`<p>${summary}</p>
<section class="card"><table>
<thead><tr><th>Time</th><th>Level</th><th>Channel</th><th>Message</th></tr></thead>
${data.records.map(
  (record) => html`<tr>
<td class="mono">${formatTime(record.time)}${record.requestType === 'sub' ? html`<br><span class="tag sub">sub-request</span> ${record.token !== null && record.token !== profile.token ? profileLink(base, record.token) : null}` : null}</td>
<td><span class="tag ${record.level}">${record.level}</span></td>
<td>${record.channel}</td>
<td><pre>${record.message}</pre>${Object.keys(record.context).length > 0 ? html`<details><summary class="muted">context</summary>${jsonBlock(record.context)}</details>` : null}</td>
</tr>`,
)}
</table></section>`
}`;
  },
};
