/** A histogram's counts as plain data: per bucket (not cumulative; the last is above every bound), their sum and number. */
export interface HistogramData {
  readonly counts: readonly number[];
  readonly sum: number;
  readonly count: number;
}

/** One series' histogram while recording: a count per bucket, the sum and the number of values. */
export class HistogramCounts {
  readonly #bounds: readonly number[];
  readonly #counts: Float64Array;
  #sum = 0;
  #count = 0;

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
    this.#counts = new Float64Array(bounds.length + 1);
  }

  /** Counts `value` in the first bucket whose bound is at least `value` (`le`: less than or equal). */
  record(value: number): void {
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.#counts[i]!++;
    this.#sum += value;
    this.#count++;
  }

  data(): HistogramData {
    return { counts: Array.from(this.#counts), sum: this.#sum, count: this.#count };
  }
}

/** `a` and `b` added bucket by bucket (same bounds). */
export function addHistograms(a: HistogramData, b: HistogramData): HistogramData {
  return { counts: a.counts.map((count, i) => count + (b.counts[i] ?? 0)), sum: a.sum + b.sum, count: a.count + b.count };
}
