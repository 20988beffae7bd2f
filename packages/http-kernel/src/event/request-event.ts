import type { Response } from '../http/response.js';
import { KernelEvent } from './kernel-event.js';

/** `kernel.request`: before routing. A listener that sets a response ends the request there. */
export class RequestEvent extends KernelEvent {
  #response: Response | null = null;

  get response(): Response | null {
    return this.#response;
  }

  /** Answers the request with `response`; later listeners and the controller are skipped. */
  setResponse(response: Response): void {
    this.#response = response;
    this.stopPropagation();
  }

  hasResponse(): boolean {
    return this.#response !== null;
  }
}
