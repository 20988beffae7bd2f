import type { SecurityData } from '../../collector/security-collector.js';
import { card, keyValueTable, plainValue } from '../components.js';
import { html, type SafeHtml } from '../html.js';
import type { PanelView } from './panel-view.js';

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
