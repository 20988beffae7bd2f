import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@switchboard/http-kernel';
import { ConfigError, HOST_ROOT } from '../config.js';

/** One account of a users file: `{ "users": [{ "username", "roles", "password" (a scrypt hash) }] }`. */
export interface ConfiguredUser {
  username: string;
  roles: string[];
  password: string;
}

/** The users file shipped with the example: its passwords are published in the docs. */
export const DEMO_USERS_FILE = join(HOST_ROOT, 'config/security-users.json');

/** The accounts of a users file, by username. */
export function readUsers(file: string): ReadonlyMap<string, ConfiguredUser> {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { users?: ConfiguredUser[] };
  return new Map((parsed.users ?? []).map((user) => [user.username, user]));
}

/**
 * Production mode does not start with the demo accounts (their passwords are in the docs): a
 * users file holding any of the shipped entries (the shipped file, a copy, a file they were
 * pasted into) is refused with a `ConfigError` naming `SECURITY_USERS_FILE`, unless
 * `ALLOW_DEMO_USERS=1` says the operator wants the demo; then it starts with a WARNING naming the
 * accounts, so that a deployment left that way shows it in its log. Entries are compared by their
 * stored hash, which is unique to the shipped file (its own salt).
 */
export function refuseDemoUsers(usersFile: string, debug: boolean, env: NodeJS.ProcessEnv, logger: Logger): void {
  if (debug) return;
  const demoHashes = new Set([...readUsers(DEMO_USERS_FILE).values()].map((user) => user.password));
  const demoUsers = [...readUsers(usersFile).values()].filter((user) => demoHashes.has(user.password)).map((user) => user.username);
  if (demoUsers.length === 0) return;
  if (env['ALLOW_DEMO_USERS']?.trim() === '1') {
    logger.warn(
      { users_file: usersFile },
      `Production mode (APP_DEBUG=0) serves the demo accounts (${demoUsers.join(', ')}) of ${usersFile} because ALLOW_DEMO_USERS=1: ` +
        'their passwords are published. Set SECURITY_USERS_FILE to your own users file for anything but a demonstration.',
    );
    return;
  }
  throw new ConfigError(
    `Production mode (APP_DEBUG=0) refuses the demo accounts (${demoUsers.join(', ')}) of ${usersFile}: their passwords are published. ` +
      'Set SECURITY_USERS_FILE to your own users file (or ALLOW_DEMO_USERS=1 to serve the demo accounts anyway).',
  );
}
