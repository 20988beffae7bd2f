import { BODY_SIZE_BUCKETS, DURATION_BUCKETS } from './buckets.js';
import { HistogramCounts } from './histogram-counts.js';
import type { RequestSeriesData } from './metrics-snapshot.js';

/** One series while recording: the labels it was made for and its three histograms. */
export class RequestSeries {
  readonly duration = new HistogramCounts(DURATION_BUCKETS);
  readonly requestBodySize = new HistogramCounts(BODY_SIZE_BUCKETS);
  readonly responseBodySize = new HistogramCounts(BODY_SIZE_BUCKETS);
  aborted = 0;

  constructor(
    readonly method: string,
    readonly route: string,
    readonly routePath: string | null,
    readonly status: number,
    readonly scheme: string,
  ) {}

  data(): RequestSeriesData {
    return {
      method: this.method,
      route: this.route,
      routePath: this.routePath,
      status: this.status,
      scheme: this.scheme,
      duration: this.duration.data(),
      requestBodySize: this.requestBodySize.data(),
      responseBodySize: this.responseBodySize.data(),
      aborted: this.aborted,
    };
  }
}
