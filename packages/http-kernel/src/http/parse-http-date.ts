const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
/** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete RFC 850 form) */
const RFC850_DATE =
  /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
/** `Sun Nov  6 08:49:37 1994` (obsolete asctime form, read as UTC) */
const ASCTIME_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/**
 * The time (milliseconds since the epoch) of an HTTP-date in one of the three forms of RFC 9110
 * §5.6.7, or `null` for anything else: no other shape, no out-of-range field (31 April, hour 24),
 * no local time. Conditional requests ignore a date that is not valid (RFC 9110 §13.1.3–13.1.5),
 * which a lenient parser would turn into a real condition (`Date.parse('1')` is a date in 2001).
 * The weekday is checked for shape only, as common servers do. A two-digit RFC 850 year that
 * would be more than 50 years in the future is read as the most recent such year in the past
 * (§5.6.7); `now` is the clock that rule reads.
 */
export function parseHttpDate(value: string, now = Date.now()): number | null {
  const text = value.trim();
  let match = IMF_FIXDATE.exec(text);
  if (match !== null) return timeOf(match[3]!, match[2]!, match[1]!, match[4]!, match[5]!, match[6]!);
  match = ASCTIME_DATE.exec(text);
  if (match !== null) return timeOf(match[6]!, match[1]!, match[2]!.trim(), match[3]!, match[4]!, match[5]!);
  match = RFC850_DATE.exec(text);
  if (match === null) return null;
  const currentYear = new Date(now).getUTCFullYear();
  let year = Math.floor(currentYear / 100) * 100 + Number(match[3]);
  if (year > currentYear + 50) year -= 100;
  return timeOf(String(year), match[2]!, match[1]!, match[4]!, match[5]!, match[6]!);
}

function timeOf(year: string, monthName: string, day: string, hour: string, minute: string, second: string): number | null {
  const month = MONTHS.indexOf(monthName);
  const d = Number(day);
  const h = Number(hour);
  const m = Number(minute);
  // 60 is the grammar's leap second; the time is that of the next second.
  const s = Number(second);
  if (month < 0 || d < 1 || d > daysIn(Number(year), month) || h > 23 || m > 59 || s > 60) return null;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), month, d);
  date.setUTCHours(h, m, s, 0);
  return date.getTime();
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 1 && leap ? 29 : DAYS_IN_MONTH[month]!;
}
