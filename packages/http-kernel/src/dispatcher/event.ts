/**
 * Base class for dispatched events. Propagation is a plain field so the dispatcher's
 * check before each listener is one property read.
 */
export class Event {
  propagationStopped = false;

  /** Later listeners of this dispatch are not called; the current one runs to its end. */
  stopPropagation(): void {
    this.propagationStopped = true;
  }

  isPropagationStopped(): boolean {
    return this.propagationStopped;
  }
}
