import { describe, expect, it } from 'vitest';
import { parseHttpDate } from '../src/index.js';

const NOV_6_1994 = Date.UTC(1994, 10, 6, 8, 49, 37);
/** The clock the RFC 850 two-digit-year rule reads. */
const NOW = Date.UTC(2026, 11, 2);

describe('parseHttpDate', () => {
  it.each([
    ['Sun, 06 Nov 1994 08:49:37 GMT', NOV_6_1994],
    ['Sunday, 06-Nov-94 08:49:37 GMT', NOV_6_1994],
    ['Sun Nov  6 08:49:37 1994', NOV_6_1994],
    ['Sun Nov 16 08:49:37 1994', Date.UTC(1994, 10, 16, 8, 49, 37)],
    ['  Sun, 06 Nov 1994 08:49:37 GMT ', NOV_6_1994],
    ['Thu, 29 Feb 2024 23:59:59 GMT', Date.UTC(2024, 1, 29, 23, 59, 59)],
    ['Thu, 01 Jan 1970 00:00:00 GMT', 0],
    // Two-digit years: not more than 50 years ahead of now, else the century before.
    ['Wednesday, 01-Jan-76 00:00:00 GMT', Date.UTC(2076, 0, 1)],
    ['Friday, 01-Jan-77 00:00:00 GMT', Date.UTC(1977, 0, 1)],
  ])('%j is %d', (value, expected) => {
    expect(parseHttpDate(value, NOW)).toBe(expected);
  });

  it.each([
    '1',
    '',
    'tomorrow 5',
    'yesterday',
    '2026-02-01',
    '2026-02-01T00:00:00Z',
    '1994-11-06T08:49:37.000Z',
    'Sun, 06 Nov 1994 08:49:37',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 06 Nov 1994 08:49:37 +0000',
    'sun, 06 nov 1994 08:49:37 gmt',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 94 08:49:37 GMT',
    'Sun, 06 November 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 8:49:37 GMT',
    'Sun, 06 Nov 1994 24:00:00 GMT',
    'Sun, 06 Nov 1994 08:60:00 GMT',
    'Sun, 31 Apr 1994 08:49:37 GMT',
    'Thu, 29 Feb 2023 00:00:00 GMT',
    'Sun, 00 Nov 1994 08:49:37 GMT',
    'Funday, 06 Nov 1994 08:49:37 GMT',
    'Sun,  06 Nov 1994 08:49:37 GMT',
    'Sunday, 06-Nov-1994 08:49:37 GMT',
    'Sun Nov 6 08:49:37 1994',
    'Sun Nov  6 08:49:37 1994 GMT',
    'Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT',
  ])('%j is not an HTTP-date', (value) => {
    expect(parseHttpDate(value, NOW)).toBeNull();
  });

  it('reads back every date the kernel writes', () => {
    for (const time of [0, NOV_6_1994, Date.UTC(2026, 11, 31, 23, 59, 59), Date.UTC(9999, 11, 31, 23, 59, 59)]) {
      expect(parseHttpDate(new Date(time).toUTCString())).toBe(time);
    }
  });
});
