import { KernelEvent } from './kernel-event.js';

/** `kernel.finish_request`: the response is built; listeners reset state set for this request (locale, router context). */
export class FinishRequestEvent extends KernelEvent {}
