/**
 * The program of `PasswordHasherProcess`'s child: checks one password at a time on its main
 * thread, which the host has set to the lowest CPU priority, and answers over IPC. It prints
 * nothing, so neither passwords nor hashes can reach a log from here.
 */
import type { HasherReply, HasherRequest } from './password-hasher-process.js';
import { scryptPasswordHasher } from './scrypt-password-hasher.js';

/**
 * A host that exits early (refused at startup, or killed) closes the channel, possibly before this
 * child has loaded: with the callback, a send that fails is not an unhandled 'error' printing a
 * stack into the host's terminal. Nobody is left to answer, so the child just exits.
 */
const send = (reply: HasherReply): void => {
  if (!process.connected) process.exit(0);
  process.send?.(reply, undefined, undefined, (error: Error | null) => {
    if (error !== null) process.exit(0);
  });
};

process.on('message', (request: HasherRequest) => {
  try {
    send({ id: request.id, valid: scryptPasswordHasher.verifySync(request.password, request.stored) });
  } catch {
    send({ id: request.id, failed: true });
  }
});
// The host has gone (or closed us): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
// The host alone decides when this child stops (it kills it at the end of its shutdown; its exit
// closes the channel). Ctrl-C in a terminal signals the whole process group, this child too, and a
// service manager may send SIGTERM to every process: either would cut the logins the host's
// shutdown is still finishing, and log a dead checker while the host stops on purpose.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
send({ ready: true });
