import { describeValue } from '../profile/describe-value.js';
import type { CollectContext, DataCollector } from './data-collector.js';

export interface RouterData {
  /** The matched route, or `null` when routing failed or did not run. */
  readonly route: string | null;
  readonly routeParams: Readonly<Record<string, unknown>>;
  /** What the matcher was given, so the panel can replay the match and explain it. */
  readonly method: string;
  readonly path: string;
  readonly host: string;
  readonly scheme: string;
  /** A sub-request whose creator chose its controller (the error page): the router did not match it. */
  readonly presetController: boolean;
}

/**
 * The routing outcome. Only the inputs are stored: the route-by-route log (which routes were
 * tried, why each did not match) is computed by the router panel when it is opened.
 */
export class RouterCollector implements DataCollector<RouterData> {
  readonly name = 'router';

  collect({ recording }: CollectContext): RouterData {
    const request = recording.request;
    const route = request.attributes.get('_route');
    return {
      route: typeof route === 'string' ? route : null,
      routeParams: describeValue(request.attributes.get('_route_params') ?? {}) as Record<string, unknown>,
      method: request.method,
      path: request.rawPath,
      host: request.host,
      scheme: request.scheme,
      presetController: recording.parent !== null && route === undefined && request.attributes.has('_controller'),
    };
  }
}
