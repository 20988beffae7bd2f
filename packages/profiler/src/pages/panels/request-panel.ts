import type { RequestData } from '../../collector/request-collector.js';
import { card, headerTable, keyValueTable, plainValue, profileLink, type Row } from '../markup/components.js';
import { html, type SafeHtml } from '../markup/html.js';
import type { PanelContext, PanelView } from './panel-view.js';

export const requestPanel: PanelView<RequestData> = {
  name: 'request',
  title: 'Request / Response',
  badge: (data) => ({ text: String(data.statusCode), ...(data.statusCode >= 400 ? { tone: 'bad' as const } : {}) }),
  render(data: RequestData, { profile, base }: PanelContext): SafeHtml {
    const related: Row[] = [];
    if (profile.parentToken !== null) {
      related.push(['Sub-request of', profileLink(base, profile.parentToken, describe(profile.parent, profile.parentToken))]);
    }
    for (const token of profile.childTokens) {
      related.push(['Forwarded to', profileLink(base, token, describe(profile.childProfile(token), token))]);
    }
    return html`
<h2>Request / Response</h2>
${card(
  'Request',
  keyValueTable([
    ['Method', data.method],
    ['URL', html`<code>${data.url}</code>`],
    ['Route', data.route ?? html`<span class="muted">no route matched</span>`],
    ['Controller', data.controller],
    ['Client IP', data.clientIp],
    ['Protocol', `HTTP/${data.protocolVersion}`],
    ['Locale', data.locale],
    ...related,
  ]),
)}
${card(
  'Route parameters',
  keyValueTable(
    Object.entries(data.routeParams).map(([name, value]) => [name, plainValue(value)]),
    'No route parameters.',
  ),
)}
${card(
  'Query',
  keyValueTable(
    data.query.map(([name, value]) => [name, html`<code>${value}</code>`]),
    'No query parameters.',
  ),
)}
${card('Request headers', headerTable(data.requestHeaders))}
${card(
  'Request attributes',
  keyValueTable(
    Object.entries(data.attributes).map(([name, value]) => [name, plainValue(value)]),
    'No attributes.',
  ),
)}
${card(
  'Response',
  keyValueTable([['Status', `${data.statusCode} ${data.statusText}`], ['Content-Type', data.contentType], ...eventStreamRows(data)]),
)}
${card('Response headers', headerTable(data.responseHeaders))}`;
  },
};

function eventStreamRows(data: RequestData): Row[] {
  if (data.eventStream === undefined) return [];
  const outcome = data.eventStream;
  return outcome === null
    ? [['Event stream', 'still running when the profile was saved']]
    : [['Event stream', `${outcome.eventsSent} event(s) sent; ended: ${outcome.ending}`]];
}

function describe(profile: { method: string; url: string; statusCode: number } | null, token: string): string {
  return profile === null ? token : `${token} — ${profile.method} ${profile.url} (${profile.statusCode})`;
}
