import type { TimeData } from '../../collector/time-collector.js';
import { card, formatMs, keyValueTable } from '../markup/components.js';
import { html, type SafeHtml } from '../markup/html.js';
import type { PanelView } from './panel-view.js';

export const timePanel: PanelView<TimeData> = {
  name: 'time',
  title: 'Performance',
  badge: (data) => ({ text: formatMs(data.totalMs) }),
  render(data: TimeData): SafeHtml {
    const span = Math.max(data.totalMs, ...data.timeline.map((entry) => entry.startMs + entry.durationMs), 0.001);
    const percent = (ms: number): string => `${Math.min(100, Math.max(0, (ms / span) * 100)).toFixed(2)}%`;
    return html`<h2>Performance</h2>
${card(
  'Totals',
  keyValueTable([
    ['Total (first kernel event to finish_request)', formatMs(data.totalMs)],
    ['Until the response was ready', formatMs(data.untilResponseMs)],
  ]),
)}
<section class="card"><h3>Timeline</h3><table>
<thead><tr><th>Event</th><th>Start</th><th>Duration</th><th style="width:45%"></th></tr></thead>
${data.timeline.map((entry) => html`<tr><td class="mono">${entry.event}${entry.requestType === 'sub' ? html` <span class="tag sub">sub</span>` : null}</td><td>${formatMs(entry.startMs)}</td><td>${formatMs(entry.durationMs)}</td><td><div class="bar"><span class="${entry.requestType}" style="left:${percent(entry.startMs)};width:${percent(entry.durationMs)}"></span></div></td></tr>`)}
</table></section>`;
  },
};
