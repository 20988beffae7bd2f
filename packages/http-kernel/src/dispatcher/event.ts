/**
 * Base class for dispatched events. Propagation is a plain field so the dispatcher's
 * check before each listener is one property read.
 *
 * Fields of the event classes are declared and assigned in constructors rather than written as
 * class fields with initializers: building events is on every request's path, and assignments are
 * what V8 (Node 20) optimizes best (the whole project also compiles with
 * `useDefineForClassFields: false`, see docs/decisions.md).
 */
export class Event {
  declare propagationStopped: boolean;

  constructor() {
    this.propagationStopped = false;
  }

  /** Later listeners of this dispatch are not called; the current one runs to its end. */
  stopPropagation(): void {
    this.propagationStopped = true;
  }

  isPropagationStopped(): boolean {
    return this.propagationStopped;
  }
}
