import type { LogLevel } from '@switchboard/http-kernel';
import { describeValue } from '../profile/describe-value.js';
import type { CollectContext, DataCollector } from './data-collector.js';

export interface LogRecordData {
  /** Epoch ms. */
  readonly time: number;
  readonly level: LogLevel;
  readonly channel: string;
  readonly message: string;
  readonly context: Readonly<Record<string, unknown>>;
  readonly requestType: 'main' | 'sub';
  /** Token of the request that logged it. */
  readonly token: string | null;
}

export interface LoggerData {
  readonly records: readonly LogRecordData[];
  /** Records per level, for the panel's summary. */
  readonly counts: Readonly<Partial<Record<LogLevel, number>>>;
}

/** Log records written through the `ProfilingLogger` while this request (or its sub-requests) ran. */
export class LoggerCollector implements DataCollector<LoggerData> {
  readonly name = 'logger';

  collect({ recording, chain, redactor }: CollectContext): LoggerData {
    const records: LogRecordData[] = [];
    for (const owner of chain.descendantsOf(recording)) {
      for (const record of owner.logs) {
        records.push({
          time: record.time,
          level: record.level,
          channel: record.channel,
          message: record.message,
          context: redactor.namedValues(describeValue(record.context)) as Record<string, unknown>,
          requestType: owner.parent === null ? 'main' : 'sub',
          token: owner.token,
        });
      }
    }
    records.sort((a, b) => a.time - b.time);
    const counts: Partial<Record<LogLevel, number>> = {};
    for (const record of records) counts[record.level] = (counts[record.level] ?? 0) + 1;
    return { records, counts };
  }
}
