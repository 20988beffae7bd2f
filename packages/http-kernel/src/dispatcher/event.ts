/**
 * Base class for dispatched events. Propagation is a plain field so the dispatcher's
 * check before each listener is one property read.
 *
 * Fields of the event classes are declared and assigned in constructors rather than written as
 * class fields: V8 (Node 20) defines class fields one by one with define semantics, which made
 * building the kernel's events the largest cost of a request (measured, see docs/benchmarks.md).
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
