import { card, html, type PanelView, type SafeHtml } from '@switchboard/profiler/collector';
import type { RateLimitData } from './rate-limit-collector.js';

/** The `rate_limit` panel of the profiler pages: each decision, limit by limit; a refusal badges it 429. */
export const rateLimitPanel: PanelView<RateLimitData> = {
  name: 'rate_limit',
  title: 'Rate limits',
  badge: (data) => (data.decisions.some((decision) => !decision.allowed) ? { text: '429', tone: 'bad' } : null),
  render(data: RateLimitData): SafeHtml {
    return html`<h2>Rate limits</h2>
${data.decisions.map((decision) =>
  card(
    `${decision.source}: ${decision.allowed ? 'allowed' : 'refused'}${decision.storeUnavailable ? ' (store unavailable: let through)' : ''}`,
    html`<table>
<thead><tr><th>Limit</th><th>Key</th><th>Policy</th><th>Decision</th><th>Remaining</th><th>Reset</th><th>Retry after</th></tr></thead>
<tbody>${decision.results.map(
      (result) =>
        html`<tr><td>${result.id}</td><td><code>${result.key}</code></td><td>${result.policy}</td><td>${result.allowed ? 'allowed' : 'refused'}</td><td>${result.remaining} of ${result.limit}</td><td>${result.resetSeconds} s</td><td>${result.allowed ? '–' : `${result.retryAfterSeconds} s`}</td></tr>`,
    )}</tbody>
</table>`,
  ),
)}`;
  },
};
