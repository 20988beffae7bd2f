/** `'.001'` … `'.999'` as `String(n / 1000)` ends, trailing zeros dropped (`'.5'`); `''` for none. */
const THOUSANDTHS = Array.from({ length: 1000 }, (_, thousandths) => String(thousandths / 1000).slice(1));

/**
 * `String(micros / 1000)`, the same text, without writing a fraction as a double (the slowest part
 * of the line): the whole milliseconds as an integer, then the fraction from a table.
 */
export function millisecondsText(micros: number): string {
  const thousandths = micros % 1000;
  return `${(micros - thousandths) / 1000}${THOUSANDTHS[thousandths]!}`;
}
