let cachedSecond = -1;
let cachedValue = '';

/**
 * The IMF-fixdate of now (`Sun, 06 Nov 1994 08:49:37 GMT`), formatted at most once per second:
 * every response carries one, so formatting it per response would be waste.
 */
export function httpDate(now: number = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedValue = new Date(second * 1000).toUTCString();
  }
  return cachedValue;
}
