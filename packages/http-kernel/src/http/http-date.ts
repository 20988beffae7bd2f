let current: string | null = null;

/**
 * The IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) of `now`, or of the current second. Every
 * response carries one, so the current second's is formatted once and kept until a timer
 * (unreferenced: it never holds the process open) clears it at the next second, as node:http does
 * for its own Date header: no clock read per response.
 */
export function httpDate(now?: number): string {
  if (now !== undefined) return new Date(now).toUTCString();
  if (current === null) {
    const time = Date.now();
    current = new Date(time).toUTCString();
    const timer: { unref?(): void } = setTimeout(forget, 1000 - (time % 1000));
    timer.unref?.();
  }
  return current;
}

function forget(): void {
  current = null;
}
