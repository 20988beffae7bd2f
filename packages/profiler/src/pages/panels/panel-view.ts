import type { Profile } from '../../profile/profile.js';
import type { Redactor } from '../../profile/redactor.js';
import type { SafeHtml } from '../markup/html.js';
import type { RouteMatchExplainer } from './route-match-explainer.js';

/** What a panel may use besides its collector's data. */
export interface PanelContext {
  readonly profile: Profile;
  /** Path prefix of the profiler pages, `/_profiler`. */
  readonly base: string;
  /** For data computed at view time (the route-matching log): secrets are hidden there too. */
  readonly redactor: Redactor;
  readonly explainRoute: RouteMatchExplainer | null;
}

export interface PanelBadge {
  readonly text: string;
  readonly tone?: 'bad' | 'warn';
}

/** How one collector's data is shown. `name` is the collector's name. */
export interface PanelView<D = unknown> {
  readonly name: string;
  readonly title: string;
  /** A short figure beside the panel's name in the menu (error count, duration). */
  badge?(data: D): PanelBadge | null;
  render(data: D, context: PanelContext): SafeHtml | Promise<SafeHtml>;
}
