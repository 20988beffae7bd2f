import { card, html, keyValueTable, plainValue, type PanelView, type SafeHtml } from '@switchboard/profiler/collector';
import type { SecurityData } from './security-collector.js';

/** The `security` panel of the profiler pages: firewall, user, stateless, session use. */
export const securityPanel: PanelView<SecurityData> = {
  name: 'security',
  title: 'Security',
  badge: (data) => (data.user === null ? { text: 'anon.' } : { text: 'user' }),
  render(data: SecurityData): SafeHtml {
    return html`<h2>Security</h2>
${card(
  'Firewall',
  keyValueTable([
    ['Firewall', data.firewall ?? html`<span class="muted">no firewall handled this request</span>`],
    ['User', data.user === null ? html`<span class="muted">none (not authenticated)</span>` : plainValue(data.user)],
    ['Stateless', data.stateless ? 'yes' : 'no'],
    ['Session', data.sessionUsages.length === 0 ? 'unused' : html`used: ${data.sessionUsages.join(', ')}`],
  ]),
)}${data.token === undefined ? '' : card('Token (issuer, kid, key set)', plainValue(data.token))}`;
  },
};
