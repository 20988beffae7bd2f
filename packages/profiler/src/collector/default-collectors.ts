import type { DataCollector } from './data-collector.js';
import { EventsCollector } from './events-collector.js';
import { ExceptionCollector } from './exception-collector.js';
import { LoggerCollector } from './logger-collector.js';
import { MemoryCollector } from './memory-collector.js';
import { RequestCollector } from './request-collector.js';
import { RouterCollector } from './router-collector.js';
import { TimeCollector } from './time-collector.js';

/**
 * The panels in the order the page lists them. Packages add their own after these (the security
 * and rate-limit packages' `./profiler` entries).
 */
export function defaultCollectors(): DataCollector[] {
  return [
    new RequestCollector(),
    new ExceptionCollector(),
    new EventsCollector(),
    new RouterCollector(),
    new LoggerCollector(),
    new TimeCollector(),
    new MemoryCollector(),
  ];
}
