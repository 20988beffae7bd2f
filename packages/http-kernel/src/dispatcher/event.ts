/**
 * Base class for dispatched events. Propagation is a plain field, which the dispatcher reads
 * before each listener. Event classes declare their fields and assign them in their constructors
 * (docs/decisions.md D6).
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
