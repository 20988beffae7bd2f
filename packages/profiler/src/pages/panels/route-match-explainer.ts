import type { RouterData } from '../../collector/router-collector.js';

/** One route as the matcher saw it while matching the profiled request. */
export interface RouteMatchLogEntry {
  readonly name: string;
  readonly path: string;
  /** `match`: this route answered; `almost`: the path matched but something else did not; `none`: the path did not. */
  readonly level: 'match' | 'almost' | 'none';
  /** Why it did or did not match, in the router's words. */
  readonly reason: string;
}

/** Replays routing for the stored request inputs; supplied by the router (its match log). */
export type RouteMatchExplainer = (input: RouterData) => readonly RouteMatchLogEntry[];
