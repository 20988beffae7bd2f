export interface MemoryData {
  /** Bytes, for the whole process (Node has no per-request memory figure). */
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly rss: number;
  readonly external: number;
}

/** `process.memoryUsage()` reads /proc for the RSS; one reading serves the requests of this window. */
const READING_LIFETIME_MS = 1000;

let reading: MemoryData | null = null;
let readAt = Number.NEGATIVE_INFINITY;

/**
 * The process's memory now. The figure is process-wide, so one reading is shared by the requests
 * finishing within a second: under load, profiling then costs no extra system call per request.
 */
export function memoryReading(): MemoryData {
  const now = performance.now();
  if (reading === null || now - readAt > READING_LIFETIME_MS) {
    const usage = process.memoryUsage();
    reading = { heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, rss: usage.rss, external: usage.external };
    readAt = now;
  }
  return reading;
}
