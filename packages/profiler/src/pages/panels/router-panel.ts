import type { RouterData } from '../../collector/router-collector.js';
import { card, keyValueTable, plainValue } from '../markup/components.js';
import { html, type SafeHtml } from '../markup/html.js';
import type { PanelContext, PanelView } from './panel-view.js';
import type { RouteMatchExplainer, RouteMatchLogEntry } from './route-match-explainer.js';

export const routerPanel: PanelView<RouterData> = {
  name: 'router',
  title: 'Routing',
  badge: (data) => (data.route === null ? { text: 'none', tone: 'warn' } : null),
  render(data: RouterData, { explainRoute, redactor }: PanelContext): SafeHtml {
    const log = matchLog(data, explainRoute, (text) => redactor.text(text));
    return html`<h2>Routing</h2>
${card(
  'Result',
  keyValueTable([
    [
      'Matched route',
      data.route ??
        (data.presetController
          ? html`<span class="muted">not routed — a sub-request whose controller was chosen by its creator (the error page)</span>`
          : html`<span class="muted">none — no route matched ${data.method} ${data.path}</span>`),
    ],
    ['Method', data.method],
    ['Path', html`<code>${data.path}</code>`],
    ['Host', data.host],
    ['Scheme', data.scheme],
  ]),
)}
${card(
  'Route parameters',
  keyValueTable(
    Object.entries(data.routeParams).map(([name, value]) => [name, plainValue(value)]),
    'No route parameters.',
  ),
)}
${card('Routes tried, in order', log)}`;
  },
};

/** The route-by-route table, replayed now (the only time it is computed). */
function matchLog(data: RouterData, explainRoute: RouteMatchExplainer | null, redact: (text: string) => string): SafeHtml {
  if (explainRoute === null) {
    return html`<p class="empty">No router was given to the profiler pages, so the route-by-route log cannot be shown.</p>`;
  }
  let entries: readonly RouteMatchLogEntry[];
  try {
    entries = explainRoute(data);
  } catch (error) {
    return html`<p class="empty">The router could not replay this request: ${redact(error instanceof Error ? error.message : String(error))}</p>`;
  }
  if (entries.length === 0) return html`<p class="empty">No routes are defined.</p>`;
  return html`<table><thead><tr><th>Route</th><th>Path</th><th>Result</th><th>Why</th></tr></thead>
${entries.map((entry) => html`<tr><td class="mono">${entry.name}</td><td class="mono">${entry.path}</td><td><span class="tag ${entry.level}">${entry.level === 'match' ? 'matches' : entry.level === 'almost' ? 'almost' : 'no'}</span></td><td>${redact(entry.reason)}</td></tr>`)}
</table>`;
}
