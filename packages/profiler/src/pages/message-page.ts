import type { ProfileSummary } from '../profile/profile.js';
import { html, type SafeHtml } from './markup/html.js';
import { layout } from './layout.js';
import { profileTable } from './search-page.js';

/** A page that explains something went wrong (unknown token, bad parameter), with what to do next. */
export function messagePage(title: string, message: SafeHtml, base: string, profiles?: readonly ProfileSummary[]): string {
  const body = html`<div class="notice">
<h1>${title}</h1>
<p>${message}</p>
${profiles === undefined ? html`<p><a href="${base}/">See the last profiles</a></p>` : html`<section class="card"><h3>Newest profiles</h3>${profileTable(profiles, base)}</section>`}
</div>`;
  return layout(`${title} — Switchboard profiler`, body, base);
}
