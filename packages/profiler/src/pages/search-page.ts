import type { ProfileSummary } from '../profile/profile.js';
import type { ProfilerStorageStatus, ProfileSearch } from '../storage/profiler-storage.js';
import { formatTime, profileLink, statusClass } from './markup/components.js';
import { html, type SafeHtml } from './markup/html.js';
import { layout } from './layout.js';

/** The table of profiles, newest first. */
export function profileTable(profiles: readonly ProfileSummary[], base: string): SafeHtml {
  if (profiles.length === 0) return html`<p class="empty">No profile matches.</p>`;
  return html`<table>
<thead><tr><th>Token</th><th>Status</th><th>IP</th><th>Method</th><th>URL</th><th>Time</th><th>Parent</th></tr></thead>
${profiles.map(
  (profile) => html`<tr>
<td class="mono nowrap">${profileLink(base, profile.token)}</td>
<td class="nowrap"><span class="tag ${statusClass(profile.statusCode)}">${profile.statusCode}</span></td>
<td class="nowrap">${profile.ip}</td><td class="nowrap">${profile.method}</td><td class="mono">${profile.url}</td><td class="nowrap">${formatTime(profile.time)}</td>
<td class="mono nowrap">${profile.parentToken === null ? html`<span class="muted">main</span>` : profileLink(base, profile.parentToken)}</td>
</tr>`,
)}
</table>`;
}

/** `/_profiler/`: the search form and the newest matching profiles; a notice first when storage is down. */
export function searchPage(
  search: ProfileSearch,
  profiles: readonly ProfileSummary[],
  base: string,
  outage: ProfilerStorageStatus | null = null,
): string {
  const body = html`<main>
<h2>Profiles</h2>
${outage === null ? '' : html`<p class="outage" role="alert"><b>Profile storage unavailable.</b> ${outage.message}</p>`}
<section class="card">
<form class="search" method="get" action="${base}/">
  <label>IP <input name="ip" value="${search.ip ?? ''}" placeholder="127.0.0.1"></label>
  <label>Method <input name="method" value="${search.method ?? ''}" placeholder="GET"></label>
  <label>URL contains <input name="url" value="${search.url ?? ''}" placeholder="/robots.txt"></label>
  <label>Status <input name="status" value="${search.statusCode ?? ''}" placeholder="404"></label>
  <label>Results <input name="limit" value="${search.limit ?? ''}" placeholder="50"></label>
  <button type="submit">Search</button>
</form>
</section>
<section class="card"><h3>Newest first</h3>${profileTable(profiles, base)}</section>
</main>`;
  return layout('Profiles — Switchboard profiler', body, base);
}
