import type { DispatchData, EventsData } from '../../collector/events-collector.js';
import { formatMs, profileLink } from '../markup/components.js';
import { html, type SafeHtml } from '../markup/html.js';
import type { PanelContext, PanelView } from './panel-view.js';

export const eventsPanel: PanelView<EventsData> = {
  name: 'events',
  title: 'Events',
  badge: (data) => ({ text: String(data.dispatches.length) }),
  render(data: EventsData, { base, profile }: PanelContext): SafeHtml {
    if (data.dispatches.length === 0)
      return html`<h2>Events</h2><p class="empty">No event was dispatched (is the profiler's tracer set on the dispatcher?).</p>`;
    return html`<h2>Events</h2>
<p class="muted">Every kernel event dispatched for this request${profile.childTokens.length > 0 ? ' and its sub-requests' : ''}, in the order they started. Listeners run from the highest priority down; a struck-out listener was not called because propagation was stopped.</p>
${data.dispatches.map((dispatch) => dispatchCard(dispatch, base, profile.token))}`;
  },
};

function dispatchCard(dispatch: DispatchData, base: string, ownToken: string): SafeHtml {
  const who =
    dispatch.requestType === 'sub'
      ? html`<span class="tag sub">sub-request</span> ${dispatch.token !== null && dispatch.token !== ownToken ? profileLink(base, dispatch.token) : null}`
      : html`<span class="tag">main request</span>`;
  return html`<section class="card">
<h3>${dispatch.event} ${who} <span class="muted">at ${formatMs(dispatch.startMs)}, ${formatMs(dispatch.durationMs)}</span></h3>
${dispatch.error === null ? null : html`<p class="frame threw">Ended by an error: ${dispatch.error}</p>`}
${
  dispatch.called.length + dispatch.notCalled.length === 0
    ? html`<p class="empty">No listener.</p>`
    : html`<table>
<thead><tr><th>Priority</th><th>Listener</th><th>Time</th><th></th></tr></thead>
${dispatch.called.map((call) => html`<tr><td class="mono">${call.priority}</td><td class="mono">${call.name}</td><td>${formatMs(call.durationMs)}</td><td>${call.threw ? html`<span class="threw">threw</span>` : null}${call.stoppedPropagation ? html`<span class="tag">stopped propagation</span>` : null}</td></tr>`)}
${dispatch.notCalled.map((info) => html`<tr class="skipped"><td class="mono">${info.priority}</td><td class="mono">${info.name}</td><td>not called</td><td></td></tr>`)}
</table>`
}
</section>`;
}
