/**
 * A value an argument resolver gives in place of the real one, for a `kernel.controller_arguments`
 * listener to replace (a payload read and validated asynchronously, for instance). If one reaches
 * the controller, that listener is not registered: the kernel fails the request with a 500 whose
 * message says what to register, rather than hand the controller a stand-in.
 */
export abstract class PendingArgument {
  /** The argument's name. */
  abstract readonly argumentName: string;
  /** What must be registered to replace this value, e.g. `RequestPayloadValueResolver with dispatcher.addSubscriber`. */
  abstract readonly missingRegistration: string;
}
