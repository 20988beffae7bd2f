import type { Profile, ProfileSummary } from '../profile/profile.js';
import { formatTime, profileLink, statusClass } from './markup/components.js';
import { html, query, type SafeHtml } from './markup/html.js';
import { layout } from './layout.js';
import type { PanelBadge, PanelView } from './panels/panel-view.js';

export interface ProfilePageInput {
  readonly profile: Profile;
  readonly panel: string;
  readonly panels: readonly PanelView[];
  readonly content: SafeHtml;
  readonly base: string;
}

/** A profile: summary header (with parent and children), the panel menu, the chosen panel. */
export function profilePage({ profile, panel, panels, content, base }: ProfilePageInput): string {
  const menu = panels.map((view) => {
    const data = profile.getCollector(view.name);
    const badge = safeBadge(view, data);
    return html`<a class="${view.name === panel ? 'active' : ''}" href="${base}/${encodeURIComponent(profile.token)}${query({ panel: view.name })}"><span>${view.title}</span>${badge === null ? null : html`<span class="badge ${badge.tone ?? ''}">${badge.text}</span>`}</a>`;
  });
  const body = html`
<header class="summary">
  <div class="status ${statusClass(profile.statusCode)}">${profile.statusCode}</div>
  <div>
    <h1>${profile.method} ${profile.url}</h1>
    <div class="meta">
      <span>Token <b class="mono">${profile.token}</b></span>
      <span>Client <b>${profile.ip}</b></span>
      <span>Profiled <b>${formatTime(profile.time)}</b></span>
      ${relatedLinks(profile, base)}
    </div>
  </div>
</header>
<div class="layout">
  <nav class="panels">${menu}</nav>
  <main>${content}</main>
</div>`;
  return layout(`${profile.method} ${profile.url} (${profile.statusCode}) — profile ${profile.token}`, body, base);
}

function relatedLinks(profile: Profile, base: string): SafeHtml {
  const parent =
    profile.parentToken === null
      ? null
      : html`<span>Sub-request of ${profileLink(base, profile.parentToken, label(profile.parent, profile.parentToken))}</span>`;
  const children = profile.childTokens.map((token) => {
    return html`<span>Forwarded to ${profileLink(base, token, label(profile.childProfile(token), token))}</span>`;
  });
  return html`${parent}${children}`;
}

function label(summary: ProfileSummary | null, token: string): string {
  return summary === null ? token : `${token} (${summary.statusCode}${summary.parentToken === null ? ', main request' : ', sub-request'})`;
}

function safeBadge(view: PanelView, data: unknown): PanelBadge | null {
  if (view.badge === undefined || data === undefined) return null;
  try {
    return view.badge(data);
  } catch {
    return null;
  }
}
